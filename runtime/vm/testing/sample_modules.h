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
      .binary(Opcode::kMulI, 2, 0, 1)
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

// A module with one device "device_a", one executable `executable` and
//   @main(tensor<Nxf32>, tensor<Nxf32>) -> tensor<Nxf32>   (N dynamic)
// dispatching `executable`'s entry 0 over a workgroups[0..2] grid with the
// push constant N and bindings (lhs, rhs, a new result), each of N*4 bytes at
// offset 0, the way the compiler lowers a dispatch region: alloca the
// result, dispatch, await, view, return. The result's allocation uses
// `usage`.
inline std::vector<uint8_t> buildDispatchEntryModule(
    bytecode::ExecutableRecord executable,
    std::array<int64_t, 3> workgroups = {1, 1, 1},
    uint32_t usage = hal::kTransfer | hal::kDispatchStorage | hal::kMapping) {
  BytecodeWriter w;
  w.device("device_a");
  w.executable(std::move(executable));
  using K = RegisterKind;
  // i64 registers: 0 n, 1 elemsize, 2 bytes, 3 memtype, 4 usage,
  //                5-7 workgroups, 8 zero
  // ref registers: 0 lhs view, 1 rhs view, 2 device, 3 lhs buf, 4 rhs buf,
  //                5 fence0, 6 out buf, 7 fence1, 8 out view
  auto &f = w.function("main", {K::kRef, K::kRef}, {K::kRef}, 9, 9);
  f.viewDim(0, 0, 0)
      .viewBuffer(3, 0)
      .viewBuffer(4, 1)
      .deviceGet(2, 0)
      .constI64(1, 4)
      .binary(Opcode::kMulI, 2, 0, 1)
      .constI64(3, hal::kHostVisible | hal::kDeviceVisible)
      .constI64(4, usage)
      .fenceCreate(5, 2)
      .queueAlloca(6, 2, kNoRegister, 5, 3, 4, 2)
      .fenceCreate(7, 2)
      .constI64(5, workgroups[0])
      .constI64(6, workgroups[1])
      .constI64(7, workgroups[2])
      .constI64(8, 0)
      .queueDispatchEntry(2, 5, 7, 0, 0, 5, 6, 7, {0},
                          {{3, 8, 2}, {4, 8, 2}, {6, 8, 2}})
      .fenceAwait({7})
      .viewCreate(8, 6, hal::ElementType::kF32, {0})
      .ret({{K::kRef, 8}});
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
      .binary(Opcode::kMulI, 2, 0, 1)
      .binary(Opcode::kMulI, 2, 2, 3)
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

// A module of scalar control flow, shaped like what ferry-compile emits for
// cf.br / cf.cond_br loops and recursive func.call:
//   0: @sum(n: i64) -> i64    1 + 2 + ... + n by a loop whose header block
//                             takes (acc, i) as block arguments
//   1: @fact(n: i64) -> i64   n! by recursion (1 for n <= 1)
inline std::vector<uint8_t> buildControlFlowModule() {
  BytecodeWriter w;
  using K = RegisterKind;
  // i64: 0 n, 1 acc (header arg), 2 i (header arg), 3 one, 4 i <= n,
  //      5 next acc, 6 next i, 7 zero.
  auto &sum = w.function("sum", {K::kI64}, {K::kI64}, 8, 0);
  Label header = sum.label(), body = sum.label(), exit = sum.label();
  sum.constI64(7, 0)
      .constI64(3, 1)
      .br(header, {{K::kI64, 1, 7}, {K::kI64, 2, 3}})
      .bind(header)
      .cmp(CmpPredicate::kSle, 4, 2, 0)
      .condBr(4, body, {}, exit, {})
      .bind(body)
      .binary(Opcode::kAddI, 5, 1, 2)
      .binary(Opcode::kAddI, 6, 2, 3)
      .br(header, {{K::kI64, 1, 5}, {K::kI64, 2, 6}})
      .bind(exit)
      .ret({{K::kI64, 1}});
  // i64: 0 n, 1 one, 2 n <= 1, 3 n - 1, 4 (n - 1)!, 5 n!.
  auto &fact = w.function("fact", {K::kI64}, {K::kI64}, 6, 0);
  Label base = fact.label(), recurse = fact.label();
  fact.constI64(1, 1)
      .cmp(CmpPredicate::kSle, 2, 0, 1)
      .condBr(2, base, {}, recurse, {})
      .bind(base)
      .ret({{K::kI64, 1}})
      .bind(recurse)
      .binary(Opcode::kSubI, 3, 0, 1)
      .call(/*fact=*/1, {{K::kI64, 3}}, {{K::kI64, 4}})
      .binary(Opcode::kMulI, 5, 0, 4)
      .ret({{K::kI64, 5}});
  return w.finish();
}

} // namespace ferry::vm::testing

#endif // FERRY_RUNTIME_VM_TESTING_SAMPLE_MODULES_H_
