#include "runtime/vm/context.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::vm {
namespace {

using testing::BytecodeWriter;
using K = RegisterKind;
using hal::BuiltinKernel;
using hal::ElementType;

std::shared_ptr<const Module> load(const std::vector<uint8_t> &file) {
  Result<Module> module = Module::load(file);
  EXPECT_TRUE(module.ok()) << module.status().toString();
  return std::make_shared<const Module>(std::move(*module));
}

class ContextTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("device_a");

  Context makeContext(const std::vector<uint8_t> &file) {
    auto module = load(file);
    std::vector<std::shared_ptr<hal::Device>> devices(
        module->deviceNames().size(), device);
    Result<Context> context = Context::create(module, devices);
    EXPECT_TRUE(context.ok()) << context.status().toString();
    return std::move(*context);
  }

  std::shared_ptr<hal::BufferView> view(std::vector<int32_t> values,
                                        ElementType type = ElementType::kI32) {
    auto buffer =
        *device->allocator().allocate(0, hal::kTransfer | hal::kDispatchStorage,
                                      values.size() * sizeof(int32_t));
    std::memcpy(buffer->data(), values.data(), values.size() * sizeof(int32_t));
    return *hal::BufferView::create(buffer, {int64_t(values.size())}, type);
  }

  static std::vector<int32_t> read(const Value &value) {
    auto v = value.refAs<hal::BufferView>();
    std::vector<int32_t> out(v->elementCount());
    std::memcpy(out.data(), v->buffer()->data(), out.size() * sizeof(int32_t));
    return out;
  }
};

TEST_F(ContextTest, RunsHandBuiltAdd) {
  Context context = makeContext(testing::buildElementwiseModule());
  Result<std::vector<Value>> results =
      context.invoke("main", {view({1, 2, 3, 4}), view({10, 20, 30, 40})});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ(read((*results)[0]), (std::vector<int32_t>{11, 22, 33, 44}));
  EXPECT_EQ((*results)[0].refAs<hal::BufferView>()->typeString(), "4xi32");
  hal::AllocatorStatistics stats = device->allocator().statistics();
  // 2 inputs + result + scratch; the scratch was deallocated, inputs dropped.
  EXPECT_EQ(stats.allocations, 4u);
  EXPECT_EQ(stats.deallocations, 3u);
  EXPECT_EQ(stats.liveBytes, 16u);
  EXPECT_EQ(stats.peakBytes, 64u);
  EXPECT_EQ(device->statistics().dispatches, 1u);
  results = internalError("drop");
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_F(ContextTest, RunsSubAndMul) {
  Context sub =
      makeContext(testing::buildElementwiseModule(BuiltinKernel::kSub));
  EXPECT_EQ(read((*sub.invoke("main", {view({5, 5}), view({1, 7})}))[0]),
            (std::vector<int32_t>{4, -2}));
  Context mul =
      makeContext(testing::buildElementwiseModule(BuiltinKernel::kMul));
  EXPECT_EQ(read((*mul.invoke("main", {view({5, 5}), view({1, 7})}))[0]),
            (std::vector<int32_t>{5, 35}));
}

TEST_F(ContextTest, AssertNamesExpectedAndActual) {
  Context context = makeContext(testing::buildElementwiseModule());
  auto results = context.invoke(
      "main", {view({1, 2, 3, 4}), view({1, 2, 3, 4}, ElementType::kF32)});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(), "input 1: expected 4xi32, got 4xf32");
  results = context.invoke("main", {view({1, 2, 3, 4}), view({1, 2, 3})});
  EXPECT_EQ(results.status().message(), "input 1: expected 4xi32, got 3xi32");
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_F(ContextTest, UnknownFunctionAndArgumentMismatch) {
  Context context = makeContext(testing::buildElementwiseModule());
  auto results = context.invoke("mian", {});
  EXPECT_EQ(results.status().message(),
            "module has no function 'mian' (functions: 'main')");
  results = context.invoke("main", {view({1})});
  EXPECT_EQ(results.status().message(),
            "function 'main' expects 2 arguments, got 1");
  results = context.invoke("main", {Value(int64_t(1)), view({1})});
  EXPECT_EQ(results.status().message(),
            "function 'main' argument 0 must be a ref, got an i64");
}

TEST_F(ContextTest, NullRefNamesTheOpcode) {
  Context context = makeContext(testing::buildElementwiseModule());
  auto results = context.invoke("main", {Value(Ref()), view({1})});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(),
            "function 'main' at code offset 0 (hal.buffer_view.dim): view "
            "(ref register 0) is null, expected a buffer_view");
  results = context.invoke("main", {Value(device), view({1})});
  EXPECT_NE(results.status().message().find(
                "view (ref register 0) holds a device, expected a buffer_view"),
            std::string::npos);
}

std::vector<uint8_t> scalarModule(Opcode opcode, int64_t lhs, int64_t rhs) {
  BytecodeWriter w;
  w.device("device_a");
  w.function("f", {}, {K::kI64}, 3, 0)
      .constI64(0, lhs)
      .constI64(1, rhs)
      .binary(opcode, 2, 0, 1)
      .ret({{K::kI64, 2}});
  return w.finish();
}

TEST_F(ContextTest, ScalarArithmetic) {
  auto eval = [&](Opcode opcode, int64_t a, int64_t b) {
    Context context = makeContext(scalarModule(opcode, a, b));
    auto results = context.invoke("f", {});
    EXPECT_TRUE(results.ok()) << results.status().toString();
    return results.ok() ? (*results)[0].i64() : -12345;
  };
  EXPECT_EQ(eval(Opcode::kAddI, 2, 3), 5);
  EXPECT_EQ(eval(Opcode::kAddI, INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(eval(Opcode::kSubI, 2, 3), -1);
  EXPECT_EQ(eval(Opcode::kMulI, -4, 3), -12);
  EXPECT_EQ(eval(Opcode::kDivSI, -7, 2), -3);
  EXPECT_EQ(eval(Opcode::kDivSI, INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(eval(Opcode::kAndI, 12, 10), 8);
  EXPECT_EQ(eval(Opcode::kOrI, 12, 10), 14);
}

TEST_F(ContextTest, DivisionByZero) {
  Context context = makeContext(scalarModule(Opcode::kDivSI, 7, 0));
  auto results = context.invoke("f", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find(
                "div.s.i): division by zero (7 / 0 : i64)"),
            std::string::npos)
      << results.status().message();
}

TEST_F(ContextTest, FailOpcodeCarriesTheModuleMessage) {
  BytecodeWriter w;
  w.device("device_a");
  uint32_t message = w.string("shape mismatch in program");
  w.function("f", {}, {}, 0, 0).fail(message);
  Context context = makeContext(w.finish());
  auto results = context.invoke("f", {});
  EXPECT_EQ(results.status().code(), StatusCode::kAborted);
  EXPECT_EQ(results.status().message(),
            "function 'f' failed: shape mismatch in program");
}

TEST_F(ContextTest, AwaitOnFailedFenceReturnsItsError) {
  // Dispatch with a too-small output buffer: the dispatch fails, and so does
  // its signal fence. Here the failure surfaces at the dispatch itself.
  BytecodeWriter w;
  w.device("device_a");
  w.function("f", {K::kRef}, {}, 4, 5)
      .deviceGet(1, 0)
      .constI64(0, 0)
      .constI64(1, 0)
      .constI64(2, 4) // 4 bytes: too small for 4 x i32
      .constI64(3, 4)
      .fenceCreate(2, 1)
      .queueAlloca(3, 1, bytecode::kNoRegister, 2, 0, 1, 2)
      .fenceCreate(4, 1)
      .queueDispatch(1, 2, 4, BuiltinKernel::kAdd, ElementType::kI32, 3,
                     {0, 0, 3})
      .fenceAwait({4})
      .ret({});
  Context context = makeContext(w.finish());
  auto input = view({1, 2, 3, 4})->buffer();
  auto results = context.invoke("f", {input});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find(
                "binding 2 (output) has 4 bytes but 4 x i32 needs 16"),
            std::string::npos)
      << results.status().message();

  // A fence failed upstream and awaited later returns that failure.
  BytecodeWriter w2;
  w2.device("device_a");
  w2.function("g", {K::kRef}, {}, 0, 1).fenceAwait({0}).ret({});
  Context context2 = makeContext(w2.finish());
  auto fence = hal::Fence::create();
  fence->fail(dataLoss("the producer failed"));
  results = context2.invoke("g", {fence});
  EXPECT_EQ(results.status().message(), "the producer failed");
  // A fence nothing will signal is reported, not waited on forever.
  results = context2.invoke("g", {hal::Fence::create()});
  EXPECT_EQ(results.status().code(), StatusCode::kDeadlock);
}

TEST_F(ContextTest, FenceJoinCombinesFences) {
  BytecodeWriter w;
  w.device("device_a");
  w.function("j", {K::kRef, K::kRef}, {}, 0, 3)
      .fenceJoin(2, {0, 1})
      .fenceAwait({2})
      .ret({});
  Context context = makeContext(w.finish());
  auto ok = hal::Fence::createSignaled();
  EXPECT_TRUE(context.invoke("j", {ok, ok}).ok());
  auto failed = hal::Fence::create();
  failed->fail(dataLoss("copy failed"));
  EXPECT_EQ(context.invoke("j", {ok, failed}).status().message(),
            "copy failed");
}

// Modules that pass verification but compute nonsense (mutated register
// numbers, immediates, element types) must fail cleanly when run, never crash
// or hang, and never leak device memory.
TEST_F(ContextTest, RunningMutatedModulesNeverCrashes) {
  std::vector<uint8_t> valid = testing::buildElementwiseModule();
  std::vector<uint8_t> payload(valid.begin() + bytecode::kHeaderBytes,
                               valid.end());
  auto small = drivers::local::LocalDevice::create(
      "device_a", {.maxAllocationBytes = 1 << 20});
  std::mt19937 rng(99);
  int loaded = 0;
  for (int i = 0; i < 5000; ++i) {
    std::vector<uint8_t> mutated = payload;
    for (int f = 0; f < 2; ++f)
      mutated[rng() % mutated.size()] = uint8_t(rng());
    Result<Module> module = Module::load(BytecodeWriter::withHeader(mutated));
    if (!module.ok())
      continue;
    ++loaded;
    auto shared = std::make_shared<const Module>(std::move(*module));
    std::vector<std::shared_ptr<hal::Device>> devices(
        shared->deviceNames().size(), small);
    Result<Context> context = Context::create(shared, devices);
    ASSERT_TRUE(context.ok());
    for (const Function &function : shared->functions()) {
      std::vector<Value> args;
      for (RegisterKind kind : function.argKinds)
        args.push_back(kind == K::kI64 ? Value(int64_t(rng() % 8))
                                       : Value(view({1, 2, 3, 4})));
      (void)context->invoke(function.name, std::move(args));
    }
  }
  EXPECT_GT(loaded, 50);
  EXPECT_EQ(small->allocator().statistics().liveBytes, 0u);
}

TEST_F(ContextTest, ContextNeedsOneDevicePerModuleDevice) {
  auto module = load(testing::buildElementwiseModule());
  EXPECT_TRUE(failedWith(Context::create(module, {}),
                         StatusCode::kInvalidArgument,
                         "module has 1 devices, got 0"));
  EXPECT_TRUE(failedWith(Context::create(module, {nullptr}),
                         StatusCode::kInvalidArgument,
                         "device 0 ('device_a') is null"));
}

} // namespace
} // namespace ferry::vm
