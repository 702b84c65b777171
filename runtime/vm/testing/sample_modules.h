// Hand-built modules shared by the VM and ferry-run tests, shaped like what
// ferry-compile emits for small programs.
//
// Ownership/threads: pure functions returning file bytes.
#ifndef FERRY_RUNTIME_VM_TESTING_SAMPLE_MODULES_H_
#define FERRY_RUNTIME_VM_TESTING_SAMPLE_MODULES_H_

#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm::testing {

// A module with one device "device_a" and
//   @main(tensor<Nxi32>, tensor<Nxi32>) -> tensor<Nxi32>   (N dynamic)
// computing lhs OP rhs elementwise the way the compiler lowers it: assert
// both inputs (the dynamic dim read from input 0), alloca the result,
// dispatch, await, view, return. It also allocas a scratch buffer of the same
// size and deallocas it after the dispatch, so tests see a temporary come and
// go (2 allocations and 1 deallocation inside the call). Both allocas use
// `memoryType` and `usage` (e.g. kDeviceLocal without mapping bits for a
// result the host must stage to read).
inline std::vector<uint8_t> buildElementwiseModule(
    BuiltinKernel kernel = BuiltinKernel::kAdd,
    hal::ElementType type = hal::ElementType::kI32,
    std::string_view functionName = "main",
    uint32_t memoryType = hal::kHostVisible | hal::kDeviceVisible,
    uint32_t usage = hal::kTransfer | hal::kDispatchStorage | hal::kMapping) {
  BytecodeWriter w;
  w.device("device_a");
  uint32_t msg0 = w.string("input 0");
  uint32_t msg1 = w.string("input 1");
  using K = RegisterKind;
  // i64 registers: 0 n, 1 elemsize, 2 bytes, 3 memtype, 4 usage
  // ref registers: 0 lhs view, 1 rhs view, 2 device, 3 lhs buf, 4 rhs buf,
  //                5 fence0, 6 out buf, 7 fence1, 8 scratch, 9 fence2,
  //                10 out view, 11 fence3
  auto &f = w.function(functionName, {K::kRef, K::kRef}, {K::kRef}, 5, 12);
  f.viewDim(0, 0, 0)
      .viewAssert(0, type, {0}, msg0)
      .viewAssert(1, type, {0}, msg1)
      .viewBuffer(3, 0)
      .viewBuffer(4, 1)
      .deviceGet(2, 0)
      .constI64(1, int64_t(hal::elementByteSize(type)))
      .binaryI64(Opcode::kMulI64, 2, 0, 1)
      .constI64(3, memoryType)
      .constI64(4, usage)
      .fenceCreate(5, 2)
      .queueAlloca(6, 2, kNoRegister, 5, 3, 4, 2)
      .fenceCreate(7, 2)
      .queueAlloca(8, 2, 5, 7, 3, 4, 2)
      .fenceCreate(9, 2)
      .queueDispatch(2, 7, 9, kernel, type, 0, {3, 4, 6})
      .fenceCreate(11, 2)
      .queueDealloca(2, 9, 11, 8)
      .fenceAwait({11})
      .viewCreate(10, 6, type, {0})
      .ret({{K::kRef, 10}});
  return w.finish();
}

// A module with one device "device_a" and
//   @main(tensor<?x?xi32>) -> tensor<?x?xi32>
// calling `importName` (a coarse-fences import taking (in, out, wait, signal)
// and returning the view tied to `out`) the way the compiler lowers the seed
// example: alloca an output of the input's shape, call with the alloca's
// fence as the wait fence, await the call's signal fence, return its result.
inline std::vector<uint8_t>
buildCoarseFencesCallModule(std::string_view importName = "Double.function") {
  BytecodeWriter w;
  w.device("device_a");
  using K = RegisterKind;
  uint32_t callee = w.import(importName, {K::kRef, K::kRef, K::kRef, K::kRef},
                             {K::kRef}, bytecode::kImportCoarseFences);
  uint32_t msg = w.string("input 0");
  // i64: 0 d0, 1 d1, 2 bytes, 3 four, 4 memtype, 5 usage; refs: 0 in,
  // 1 device, 2 buffer, 3 out view, 4 alloca fence, 5 call fence, 6 result.
  auto &f = w.function("main", {K::kRef}, {K::kRef}, 6, 7);
  f.viewDim(0, 0, 0)
      .viewDim(1, 0, 1)
      .viewAssert(0, hal::ElementType::kI32, {0, 1}, msg)
      .constI64(3, 4)
      .binaryI64(Opcode::kMulI64, 2, 0, 1)
      .binaryI64(Opcode::kMulI64, 2, 2, 3)
      .constI64(4, hal::kHostVisible | hal::kDeviceVisible)
      .constI64(5, hal::kTransfer | hal::kDispatchStorage | hal::kMapping)
      .deviceGet(1, 0)
      .fenceCreate(4, 1)
      .queueAlloca(2, 1, kNoRegister, 4, 4, 5, 2)
      .viewCreate(3, 2, hal::ElementType::kI32, {0, 1})
      .fenceCreate(5, 1)
      .callImport(callee,
                  {{K::kRef, 0}, {K::kRef, 3}, {K::kRef, 4}, {K::kRef, 5}},
                  {{K::kRef, 6}})
      .fenceAwait({5})
      .ret({{K::kRef, 6}});
  return w.finish();
}

} // namespace ferry::vm::testing

#endif // FERRY_RUNTIME_VM_TESTING_SAMPLE_MODULES_H_
