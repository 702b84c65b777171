// Tests of writeBytecodeModule that lit cannot express: IR the compile
// pipeline would clean up before the writer sees it, register-limit
// boundaries, and round trips through the runtime's loader and interpreter,
// which check the file against the format independently.
#include "compiler/Target/Bytecode/BytecodeWriter.h"

#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Pipelines/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/context.h"
#include "runtime/vm/module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace ferry {
namespace {

namespace bc = vm::bytecode;

class BytecodeWriterTest : public ::testing::Test {
protected:
  BytecodeWriterTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    diagnosticHandler = std::make_unique<mlir::ScopedDiagnosticHandler>(
        &context, [this](mlir::Diagnostic &diagnostic) {
          diagnostics += diagnostic.str() + "\n";
          return mlir::success();
        });
  }

  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    // For multi-block functions, which Ferry's own dialects cannot express.
    registry.insert<mlir::cf::ControlFlowDialect>();
    return registry;
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef source) {
    return mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  }

  // The file bytes, or empty with the diagnostics in `diagnostics`.
  std::vector<uint8_t> write(mlir::ModuleOp module) {
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    written = mlir::succeeded(writeBytecodeModule(module, os));
    if (!written) {
      EXPECT_TRUE(bytes.empty()) << "a failed write must write nothing";
    }
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }

  // A function of `count` index constants: it needs `count` i64 registers.
  mlir::OwningOpRef<mlir::ModuleOp> moduleWithConstants(unsigned count) {
    mlir::OpBuilder builder(&context);
    mlir::Location loc = builder.getUnknownLoc();
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    auto func = mlir::func::FuncOp::create(
        builder, loc, "constants",
        builder.getFunctionType({}, {builder.getIndexType()}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
    // Every constant is live until the sums below read it, so the first sum
    // needs count + 1 registers.
    llvm::SmallVector<mlir::Value> constants;
    for (unsigned i = 0; i < count; ++i)
      constants.push_back(
          mlir::arith::ConstantIndexOp::create(builder, loc, i));
    mlir::Value sum = constants.front();
    for (mlir::Value constant : llvm::drop_begin(constants))
      sum = mlir::arith::AddIOp::create(builder, loc, sum, constant);
    mlir::func::ReturnOp::create(builder, loc, sum);
    return module;
  }

  mlir::MLIRContext context;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> diagnosticHandler;
  std::string diagnostics;
  bool written = false;
};

uint64_t readU64(const std::vector<uint8_t> &bytes, size_t offset) {
  uint64_t value = 0;
  for (size_t i = 0; i < 8; ++i)
    value |= uint64_t(bytes[offset + i]) << (8 * i);
  return value;
}

// Every arithmetic result is returned, so each op is checked on its own.
constexpr llvm::StringLiteral kScalarModule = R"mlir(
  func.func @scalar(%a: index, %b: index)
      -> (index, index, index, index, index, index, i32) {
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %t = arith.constant true
    %mt = hal.memory_type<"HostVisible|DeviceLocal"> : i32
    %sum = arith.addi %a, %b : index
    %prod = arith.muli %sum, %c3 : index
    %diff = arith.subi %a, %prod : index
    %quot = arith.divsi %diff, %b : index
    %and = arith.andi %quot, %c11 : index
    %or = arith.ori %and, %c3 : index
    return %sum, %prod, %diff, %quot, %and, %or, %mt
        : index, index, index, index, index, index, i32
  }
)mlir";

TEST_F(BytecodeWriterTest, HeaderDescribesPayload) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kScalarModule);
  ASSERT_TRUE(module);
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;
  ASSERT_GE(file.size(), bc::kHeaderBytes);
  EXPECT_TRUE(
      std::equal(std::begin(bc::kMagic), std::end(bc::kMagic), file.begin()));
  EXPECT_EQ(file[8], bc::kFormatVersion);
  size_t payloadBytes = file.size() - bc::kHeaderBytes;
  EXPECT_EQ(readU64(file, 16), payloadBytes);
  EXPECT_EQ(readU64(file, 24),
            bc::fnv1a64(file.data() + bc::kHeaderBytes, payloadBytes));
}

TEST_F(BytecodeWriterTest, RuntimeRunsScalarCode) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kScalarModule);
  ASSERT_TRUE(module);
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;

  Result<vm::Module> loaded = vm::Module::load(file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  const vm::Function *function = loaded->lookupFunction("scalar");
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->signatureString(),
            "scalar(i64, i64) -> (i64, i64, i64, i64, i64, i64, i64)");

  Result<vm::Context> vmContext = vm::Context::create(
      std::make_shared<const vm::Module>(std::move(*loaded)), {});
  ASSERT_TRUE(vmContext.ok()) << vmContext.status().toString();
  Result<std::vector<vm::Value>> results = vmContext->invoke(
      "scalar", {vm::Value(int64_t(7)), vm::Value(int64_t(3))});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  ASSERT_EQ(results->size(), 7u);
  // Each expected value differs from what any other of the six ops, the
  // same op with its operands swapped or either operand used twice would
  // give; the quotient also tells signed from unsigned division and
  // truncation from flooring, and the masks overlap so that ori is not addi.
  EXPECT_EQ((*results)[0].i64(), 10);  // 7 + 3
  EXPECT_EQ((*results)[1].i64(), 30);  // 10 * 3
  EXPECT_EQ((*results)[2].i64(), -23); // 7 - 30
  EXPECT_EQ((*results)[3].i64(), -7);  // -23 / 3, rounded toward zero
  EXPECT_EQ((*results)[4].i64(), 9);   // -7 & 0b1011 = 0b1001
  EXPECT_EQ((*results)[5].i64(), 11);  // 0b1001 | 0b0011
  EXPECT_EQ((*results)[6].i64(), 0x11);
}

TEST_F(BytecodeWriterTest, RuntimeLoadsHALCode) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(R"mlir(
    hal.device.global @dev_a = #hal.device.target<"local", {}>
    hal.device.global @dev_b = #hal.device.target<"local", {}>
    func.func @main(%a: !hal.buffer_view, %b: !hal.buffer_view) -> !hal.buffer_view {
      %c4 = arith.constant 4 : index
      %mt = hal.memory_type<"DeviceLocal"> : i32
      %u = hal.buffer_usage<"DispatchStorage"> : i32
      %d = hal.device.get @dev_b : !hal.device
      %n = hal.buffer_view.dim<%a : !hal.buffer_view>[0] : index
      hal.buffer_view.assert<%a : !hal.buffer_view> message("a") shape([%n]) type(f32)
      %ba = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer
      %bb = hal.buffer_view.buffer<%b : !hal.buffer_view> : !hal.buffer
      %len = hal.buffer.length<%ba : !hal.buffer> : index
      %f0 = hal.fence.create device(%d : !hal.device) : !hal.fence
      %f1 = hal.fence.create device(%d : !hal.device) : !hal.fence
      %out = hal.device.queue.alloca<%d : !hal.device> signal(%f0) type(%mt) usage(%u) : !hal.buffer{%len}
      hal.device.queue.dispatch<%d : !hal.device> wait(%f0) signal(%f1) kernel("mul") type(f32) count(%n) bindings(%ba, %bb, %out)
      %f2 = hal.fence.create device(%d : !hal.device) : !hal.fence
      %tmp = hal.device.queue.alloca<%d : !hal.device> wait(%f1) signal(%f2) type(%mt) usage(%u) : !hal.buffer{%c4}
      %f3 = hal.fence.create device(%d : !hal.device) : !hal.fence
      hal.device.queue.dealloca<%d : !hal.device> wait(%f2) signal(%f3) buffer(%tmp : !hal.buffer)
      %j = hal.fence.join at([%f1, %f3]) -> !hal.fence
      hal.fence.await until([%j])
      %v = hal.buffer_view.create buffer(%out : !hal.buffer) shape([%n]) type(f32) : !hal.buffer_view
      return %v : !hal.buffer_view
    }
  )mlir");
  ASSERT_TRUE(module);
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;

  Result<vm::Module> loaded = vm::Module::load(file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  EXPECT_EQ(loaded->deviceNames(),
            (std::vector<std::string>{"dev_a", "dev_b"}));
  const vm::Function *function = loaded->lookupFunction("main");
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->signatureString(), "main(ref, ref) -> (ref)");
  EXPECT_EQ(function->i64RegisterCount, 5);
  // Registers of dead values are reused: 6 refs for 13 ref values.
  EXPECT_EQ(function->refRegisterCount, 6);
}

// Branches, block arguments, comparisons, selects and recursive calls, run
// by the interpreter. The block order in the IR (exit before the loop body,
// a block listed before the one that dominates it) is not the layout order.
TEST_F(BytecodeWriterTest, RuntimeRunsBranchesAndCalls) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(R"mlir(
    func.func @gcd(%a: i64, %b: i64) -> i64 {
      cf.br ^header(%a, %b : i64, i64)
    ^exit(%r: i64):
      return %r : i64
    ^body(%x: i64, %y: i64):
      %q = arith.divsi %x, %y : i64
      %qy = arith.muli %q, %y : i64
      %rem = arith.subi %x, %qy : i64
      cf.br ^header(%y, %rem : i64, i64)
    ^header(%u: i64, %v: i64):
      %c0 = arith.constant 0 : i64
      %done = arith.cmpi eq, %v, %c0 : i64
      cf.cond_br %done, ^exit(%u : i64), ^body(%u, %v : i64, i64)
    }
    func.func @fib(%n: i64) -> i64 {
      %c2 = arith.constant 2 : i64
      %c1 = arith.constant 1 : i64
      %small = arith.cmpi ult, %n, %c2 : i64
      cf.cond_br %small, ^base, ^recurse
    ^base:
      return %n : i64
    ^recurse:
      %n1 = arith.subi %n, %c1 : i64
      %n2 = arith.subi %n, %c2 : i64
      %f1 = func.call @fib(%n1) : (i64) -> i64
      %f2 = func.call @fib(%n2) : (i64) -> i64
      %sum = arith.addi %f1, %f2 : i64
      return %sum : i64
    }
    func.func @max_gcd_fib(%a: i64, %b: i64, %n: i64) -> i64 {
      %g = func.call @gcd(%a, %b) : (i64, i64) -> i64
      %f = func.call @fib(%n) : (i64) -> i64
      %gt = arith.cmpi sgt, %g, %f : i64
      %m = arith.select %gt, %g, %f : i64
      return %m : i64
    }
  )mlir");
  ASSERT_TRUE(module);
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;
  Result<vm::Module> loaded = vm::Module::load(file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  Result<vm::Context> vmContext = vm::Context::create(
      std::make_shared<const vm::Module>(std::move(*loaded)), {});
  ASSERT_TRUE(vmContext.ok()) << vmContext.status().toString();
  auto run = [&](int64_t a, int64_t b, int64_t n) -> int64_t {
    Result<std::vector<vm::Value>> results = vmContext->invoke(
        "max_gcd_fib", {vm::Value(a), vm::Value(b), vm::Value(n)});
    EXPECT_TRUE(results.ok()) << results.status().toString();
    return results.ok() ? (*results)[0].i64() : -1;
  };
  EXPECT_EQ(run(84, 36, 5), 12); // gcd 12 > fib(5) = 5
  EXPECT_EQ(run(7, 5, 10), 55);  // gcd 1 < fib(10) = 55
}

TEST_F(BytecodeWriterTest, ReportsEveryBadFunction) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(R"mlir(
    func.func @float_arg(%a: f128) { return }
    func.func @wide_product(%a: i64, %b: i64) -> i64 {
      %low, %high = arith.mului_extended %a, %b : i64
      return %high : i64
    }
  )mlir");
  ASSERT_TRUE(module);
  write(*module);
  EXPECT_FALSE(written);
  EXPECT_NE(
      diagnostics.find("function 'float_arg': argument 0 has type 'f128'"),
      std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("'arith.mului_extended' cannot be serialized"),
            std::string::npos)
      << diagnostics;
}

TEST_F(BytecodeWriterTest, RegisterLimitIsInclusive) {
  // 0xFFFF is kNoRegister, so 0xFFFF registers (0..0xFFFE) fit exactly:
  // 0xFFFE constants live at once and the first sum.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      moduleWithConstants(bc::kNoRegister - 1);
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;
  Result<vm::Module> loaded = vm::Module::load(file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  EXPECT_EQ(loaded->functions().front().i64RegisterCount, bc::kNoRegister);
}

TEST_F(BytecodeWriterTest, RejectsTooManyRegisters) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      moduleWithConstants(bc::kNoRegister);
  write(*module);
  EXPECT_FALSE(written);
  EXPECT_NE(diagnostics.find("needs more than 65535 i64 registers"),
            std::string::npos)
      << diagnostics;
}

// A result the host lends an argument's buffer for (iree.abi.tied), compiled
// by the whole pipeline: after the call the host's own buffer holds the
// result, and the returned view is a view of that same buffer.
TEST_F(BytecodeWriterTest, TiedResultIsWrittenIntoTheCallersBuffer) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(R"mlir(
    func.func @accumulate(%x: tensor<4xi32>, %acc: tensor<4xi32>)
        -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
      %0 = arith.addi %acc, %x : tensor<4xi32>
      %1 = arith.muli %0, %x : tensor<4xi32>
      return %1 : tensor<4xi32>
    }
  )mlir");
  ASSERT_TRUE(module);
  mlir::PassManager pm(&context);
  buildCompilePipeline(pm, CompileOptions{});
  ASSERT_TRUE(mlir::succeeded(pm.run(*module))) << diagnostics;
  std::vector<uint8_t> file = write(*module);
  ASSERT_TRUE(written) << diagnostics;
  Result<vm::Module> loaded = vm::Module::load(file);
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();

  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("__device_0");
  Result<vm::Context> vmContext = vm::Context::create(
      std::make_shared<const vm::Module>(std::move(*loaded)), {device});
  ASSERT_TRUE(vmContext.ok()) << vmContext.status().toString();
  auto view = [&](std::vector<int32_t> values) {
    auto buffer = *device->allocator().allocate(
        0, hal::kTransfer | hal::kDispatchStorage, values.size() * 4);
    std::memcpy(buffer->data(), values.data(), values.size() * 4);
    return *hal::BufferView::create(buffer, {int64_t(values.size())},
                                    hal::ElementType::kI32);
  };
  std::shared_ptr<hal::BufferView> x = view({1, 2, 3, 4});
  std::shared_ptr<hal::BufferView> acc = view({10, 20, 30, 40});
  uint64_t allocationsBefore = device->allocator().statistics().allocations;

  Result<std::vector<vm::Value>> results =
      vmContext->invoke("accumulate", {vm::Value(x), vm::Value(acc)});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  auto result = (*results)[0].refAs<hal::BufferView>();
  EXPECT_EQ(result->buffer(), acc->buffer());
  std::vector<int32_t> accAfter(4);
  std::memcpy(accAfter.data(), acc->buffer()->data(), 16);
  EXPECT_EQ(accAfter, (std::vector<int32_t>{11, 44, 99, 176}));
  EXPECT_EQ(device->allocator().statistics().allocations, allocationsBefore);
}

} // namespace
} // namespace ferry
