// Native modules: import resolution in Context::create, `call.import` and
// the coarse-fences ABI (asynchronous completion, failures through fences).
#include "runtime/vm/native_module.h"

#include <chrono>
#include <cstring>
#include <gtest/gtest.h>
#include <thread>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using bytecode::kImportCoarseFences;
using bytecode::kImportResultAllocation;
using bytecode::kNoRegister;
using hal::ElementType;
using testing::BytecodeWriter;
using K = RegisterKind;

std::shared_ptr<const Module> load(const BytecodeWriter &w) {
  Result<Module> module = Module::load(w.finish());
  EXPECT_TRUE(module.ok()) << module.status().toString();
  return std::make_shared<const Module>(std::move(*module));
}

// A module calling Math.add(i64, i64) -> i64 from main(i64, i64) -> i64.
BytecodeWriter addModule(std::string_view importName = "Math.add",
                         std::vector<K> args = {K::kI64, K::kI64},
                         std::vector<K> results = {K::kI64},
                         uint32_t flags = 0) {
  BytecodeWriter w;
  w.device("device_a");
  uint32_t add = w.import(importName, args, results, flags);
  auto &f = w.function("main", {K::kI64, K::kI64}, {K::kI64}, 3, 0);
  if (flags == 0 && args == std::vector<K>{K::kI64, K::kI64} &&
      results == std::vector<K>{K::kI64})
    f.callImport(add, {{K::kI64, 0}, {K::kI64, 1}}, {{K::kI64, 2}});
  f.ret({{K::kI64, 2}});
  return w;
}

std::shared_ptr<NativeModule> mathModule() {
  auto math = std::make_shared<NativeModule>("Math");
  EXPECT_TRUE(math->addFunction({"add",
                                 {K::kI64, K::kI64},
                                 {K::kI64},
                                 0,
                                 [](std::span<const Value> args, CallContext &)
                                     -> Result<std::vector<Value>> {
                                   return std::vector<Value>{
                                       Value(args[0].i64() + args[1].i64())};
                                 }})
                  .ok());
  return math;
}

class NativeModuleTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("device_a");

  Result<Context> create(const BytecodeWriter &w,
                         std::vector<std::shared_ptr<const NativeModule>> m,
                         ContextOptions options = {}) {
    return Context::create(load(w), {device}, std::move(m), options);
  }
};

TEST_F(NativeModuleTest, CallsAResolvedImport) {
  Result<Context> context = create(addModule(), {mathModule()});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  ASSERT_EQ(context->resolvedImports().size(), 1u);
  Result<std::vector<Value>> results =
      context->invoke("main", {Value(int64_t(40)), Value(int64_t(2))});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ((*results)[0].i64(), 42);
}

TEST_F(NativeModuleTest, UnresolvedImportNamesItAndWhatIsAvailable) {
  Result<Context> context = create(addModule("Double.function"), {});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(context.status().message(),
            "module imports 'Double.function', which no loaded native module "
            "provides (no native modules are loaded)");
  context = create(addModule("Math.sub"), {mathModule()});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(),
            "module imports 'Math.sub', which no loaded native module "
            "provides (available: 'Math.add')");
}

TEST_F(NativeModuleTest, SignatureAndConventionMustMatch) {
  Result<Context> context = create(
      addModule("Math.add", {K::kI64, K::kRef}, {K::kI64}), {mathModule()});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(),
            "module imports Math.add(i64, ref) -> (i64) but native module "
            "'Math' defines Math.add(i64, i64) -> (i64)");

  auto plain = std::make_shared<NativeModule>("Math");
  ASSERT_TRUE(plain
                  ->addFunction({"f",
                                 {K::kRef, K::kRef},
                                 {},
                                 0,
                                 [](std::span<const Value>, CallContext &)
                                     -> Result<std::vector<Value>> {
                                   return std::vector<Value>{};
                                 }})
                  .ok());
  BytecodeWriter w;
  w.device("device_a");
  w.import("Math.f", {K::kRef, K::kRef}, {}, kImportCoarseFences);
  w.function("main", {}, {}, 0, 0).ret({});
  context = create(w, {plain});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(),
            "module calls 'Math.f' with the coarse-fences ABI but native "
            "module 'Math' implements it with the plain calling convention");
}

TEST_F(NativeModuleTest, DuplicateModulesAndBadFunctions) {
  Result<Context> context = create(addModule(), {mathModule(), mathModule()});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.status().message(), "two native modules are named 'Math'");
  NativeModule m("M");
  auto body = [](std::span<const Value>,
                 CallContext &) -> Result<std::vector<Value>> {
    return std::vector<Value>{};
  };
  EXPECT_TRUE(m.addFunction({"f", {}, {}, 0, body}).ok());
  EXPECT_FALSE(m.addFunction({"f", {}, {}, 0, body}).ok());
  EXPECT_FALSE(m.addFunction({"", {}, {}, 0, body}).ok());
  EXPECT_FALSE(m.addFunction({"g", {}, {}, 0, nullptr}).ok());
  EXPECT_FALSE(
      m.addFunction({"h", {K::kRef}, {}, kImportCoarseFences, body}).ok());
  EXPECT_FALSE(m.addFunction({"i", {}, {}, 0x8, body}).ok());
}

TEST_F(NativeModuleTest, ErrorsAndBadResultsNameTheFunction) {
  auto math = std::make_shared<NativeModule>("Math");
  int mode = 0;
  ASSERT_TRUE(
      math->addFunction({"add",
                         {K::kI64, K::kI64},
                         {K::kI64},
                         0,
                         [&](std::span<const Value>,
                             CallContext &) -> Result<std::vector<Value>> {
                           if (mode == 0)
                             return invalidArgument("no adding today");
                           if (mode == 1)
                             return std::vector<Value>{};
                           return std::vector<Value>{Value(Ref(device))};
                         }})
          .ok());
  Result<Context> context = create(addModule(), {math});
  ASSERT_TRUE(context.ok());
  auto run = [&] {
    return context->invoke("main", {Value(int64_t(1)), Value(int64_t(2))})
        .status()
        .message();
  };
  EXPECT_EQ(run(), "function 'main' at code offset 0 (call.import): external "
                   "function 'Math.add': no adding today");
  mode = 1;
  EXPECT_EQ(run(), "function 'main' at code offset 0 (call.import): external "
                   "function 'Math.add' returned 0 values, its import "
                   "declares 1");
  mode = 2;
  EXPECT_EQ(run(), "function 'main' at code offset 0 (call.import): external "
                   "function 'Math.add' result 0 is a ref, its import "
                   "declares i64");
}

// The coarse-fences ABI with a callee that finishes on its own thread.
class CoarseFencesTest : public NativeModuleTest {
protected:
  enum class Behaviour {
    kDouble,
    kFailLater,
    kFailNow,
    kForgetFence,
    kNullResult,  // signals at once, returns a null ref
    kFenceResult, // signals at once, returns its signal fence
  };

  ~CoarseFencesTest() override {
    for (std::thread &t : threads)
      t.join();
  }

  // Double.function(in view, out view, wait, signal) -> out view: writes 2x
  // `in` into `out` on a new thread after `wait`, `delay` late.
  std::shared_ptr<NativeModule> doubleModule(Behaviour behaviour,
                                             std::chrono::milliseconds delay) {
    auto m = std::make_shared<NativeModule>("Double");
    EXPECT_TRUE(
        m->addFunction(
             {"function",
              {K::kRef, K::kRef, K::kRef, K::kRef},
              {K::kRef},
              kImportCoarseFences,
              [this, behaviour,
               delay](std::span<const Value> args,
                      CallContext &) -> Result<std::vector<Value>> {
                auto in = args[0].refAs<hal::BufferView>();
                auto out = args[1].refAs<hal::BufferView>();
                auto wait = args[2].refAs<hal::Fence>();
                auto signal = args[3].refAs<hal::Fence>();
                if (behaviour == Behaviour::kFailNow)
                  return resourceExhausted("out of doubling capacity");
                if (behaviour == Behaviour::kForgetFence)
                  return std::vector<Value>{Value(out)}; // never signals
                if (behaviour == Behaviour::kNullResult ||
                    behaviour == Behaviour::kFenceResult) {
                  signal->signal();
                  return std::vector<Value>{behaviour == Behaviour::kNullResult
                                                ? Value(Ref())
                                                : Value(signal)};
                }
                threads.emplace_back([=] {
                  std::this_thread::sleep_for(delay);
                  Status waited = wait ? wait->wait() : okStatus();
                  if (!waited.ok())
                    return signal->fail(waited);
                  if (behaviour == Behaviour::kFailLater)
                    return signal->fail(dataLoss("the doubler broke"));
                  const auto *src =
                      reinterpret_cast<const int32_t *>(in->buffer()->data());
                  auto *dst =
                      reinterpret_cast<int32_t *>(out->buffer()->data());
                  for (uint64_t i = 0; i < in->elementCount(); ++i)
                    dst[i] = 2 * src[i];
                  signal->signal();
                });
                return std::vector<Value>{Value(out)};
              }})
            .ok());
    return m;
  }

  // main(view) -> view: alloca an output like the compiler does, call
  // Double.function(in, out, allocaFence, callFence), await, return.
  static BytecodeWriter callerModule() {
    BytecodeWriter w;
    w.device("device_a");
    uint32_t dbl =
        w.import("Double.function", {K::kRef, K::kRef, K::kRef, K::kRef},
                 {K::kRef}, kImportCoarseFences);
    // i64: 0 n, 1 bytes, 2 memtype, 3 usage, 4 four; refs: 0 in, 1 device,
    // 2 buffer, 3 out view, 4 alloca fence, 5 call fence, 6 result.
    auto &f = w.function("main", {K::kRef}, {K::kRef}, 5, 7);
    f.viewDim(0, 0, 0)
        .constI64(4, 4)
        .binary(Opcode::kMulI, 1, 0, 4)
        .constI64(2, hal::kHostVisible | hal::kDeviceVisible)
        .constI64(3, hal::kTransfer | hal::kDispatchStorage | hal::kMapping)
        .deviceGet(1, 0)
        .fenceCreate(4, 1)
        .queueAlloca(2, 1, kNoRegister, 4, 2, 3, 1)
        .viewCreate(3, 2, ElementType::kI32, {0})
        .fenceCreate(5, 1)
        .callImport(dbl,
                    {{K::kRef, 0}, {K::kRef, 3}, {K::kRef, 4}, {K::kRef, 5}},
                    {{K::kRef, 6}})
        .fenceAwait({5})
        .ret({{K::kRef, 6}});
    return w;
  }

  std::shared_ptr<hal::BufferView> input(std::vector<int32_t> values) {
    auto buffer = *device->allocator().allocate(
        hal::kHostVisible, hal::kTransfer | hal::kDispatchStorage,
        values.size() * sizeof(int32_t));
    std::memcpy(buffer->data(), values.data(), values.size() * sizeof(int32_t));
    return *hal::BufferView::create(buffer, {int64_t(values.size())},
                                    ElementType::kI32);
  }

  std::vector<std::thread> threads;
};

TEST_F(CoarseFencesTest, CalleeWritesTiedOutputAsynchronously) {
  for (auto delay :
       {std::chrono::milliseconds(0), std::chrono::milliseconds(50)}) {
    Result<Context> context =
        create(callerModule(), {doubleModule(Behaviour::kDouble, delay)});
    ASSERT_TRUE(context.ok()) << context.status().toString();
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input({1, -2, 3}))});
    ASSERT_TRUE(results.ok()) << results.status().toString();
    auto out = (*results)[0].refAs<hal::BufferView>();
    ASSERT_NE(out, nullptr);
    const auto *data = reinterpret_cast<const int32_t *>(out->buffer()->data());
    EXPECT_EQ(std::vector<int32_t>(data, data + 3),
              (std::vector<int32_t>{2, -4, 6}));
  }
}

TEST_F(CoarseFencesTest, FailureThroughTheFenceNamesTheFunction) {
  Result<Context> context = create(
      callerModule(),
      {doubleModule(Behaviour::kFailLater, std::chrono::milliseconds(20))});
  ASSERT_TRUE(context.ok());
  Result<std::vector<Value>> results =
      context->invoke("main", {Value(input({1}))});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(results.status().message(),
            "external function 'Double.function': the doubler broke");
  for (std::thread &t : threads)
    t.join();
  threads.clear();
  results = internalError("drop");
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_F(CoarseFencesTest, SynchronousFailureFailsTheSignalFenceToo) {
  Result<Context> context =
      create(callerModule(),
             {doubleModule(Behaviour::kFailNow, std::chrono::milliseconds(0))});
  ASSERT_TRUE(context.ok());
  Result<std::vector<Value>> results =
      context->invoke("main", {Value(input({1}))});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().message(),
            "function 'main' at code offset 99 (call.import): external "
            "function 'Double.function': out of doubling capacity");
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

// With a fence timeout, a callee that never signals fails the wait on its
// fence, naming it, instead of hanging the invocation.
TEST_F(CoarseFencesTest, FenceTimeoutNamesTheFunctionThatNeverSignals) {
  for (bool localTask : {false, true}) {
    device = drivers::local::LocalDevice::create("device_a",
                                                 {.asynchronous = localTask});
    Result<Context> context = create(
        callerModule(),
        {doubleModule(Behaviour::kForgetFence, std::chrono::milliseconds(0))},
        {.fenceTimeout = std::chrono::milliseconds(50)});
    ASSERT_TRUE(context.ok()) << context.status().toString();
    auto start = std::chrono::steady_clock::now();
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input({1}))});
    ASSERT_FALSE(results.ok());
    EXPECT_EQ(results.status().code(), StatusCode::kDeadlineExceeded);
    EXPECT_EQ(results.status().message(),
              "external function 'Double.function' did not signal its fence "
              "within 0.05 s");
    EXPECT_GE(std::chrono::steady_clock::now() - start,
              std::chrono::milliseconds(50));
  }
}

// A callee that signals in time is unaffected by the timeout.
TEST_F(CoarseFencesTest, FenceTimeoutLetsTimelyCalleesFinish) {
  Result<Context> context =
      create(callerModule(),
             {doubleModule(Behaviour::kDouble, std::chrono::milliseconds(20))},
             {.fenceTimeout = std::chrono::seconds(30)});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results =
      context->invoke("main", {Value(input({1, -2, 3}))});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  auto out = (*results)[0].refAs<hal::BufferView>();
  const auto *data = reinterpret_cast<const int32_t *>(out->buffer()->data());
  EXPECT_EQ(std::vector<int32_t>(data, data + 3),
            (std::vector<int32_t>{2, -4, 6}));
  EXPECT_FALSE(
      create(callerModule(), {}, {.fenceTimeout = std::chrono::nanoseconds(-1)})
          .ok());
}

TEST_F(CoarseFencesTest, ResultThatIsNoBufferViewNamesTheFunction) {
  for (auto [behaviour, returned] :
       {std::pair(Behaviour::kNullResult, "null"),
        std::pair(Behaviour::kFenceResult, "a fence")}) {
    Result<Context> context =
        create(callerModule(),
               {doubleModule(behaviour, std::chrono::milliseconds(0))});
    ASSERT_TRUE(context.ok());
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input({1}))});
    ASSERT_FALSE(results.ok()) << returned;
    EXPECT_EQ(results.status().message(),
              strCat("function 'main' at code offset 99 (call.import): "
                     "external function 'Double.function' returned ",
                     returned,
                     " as result 0; a coarse-fences function returns a "
                     "buffer view for every result (for a tied result, a "
                     "view of the operand it writes)"));
    EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
  }
}

// New results (kImportResultAllocation): the program passes a request per
// result (device, memory types, usage) that the VM takes off the arguments
// and serves through the callee's CallContext.
class NewResultsTest : public CoarseFencesTest {
protected:
  enum class Make { kAllocate, kForeign, kWrongIndex, kTwice };

  // Repeat.function(in, wait, signal) -> new view of twice `in`'s length,
  // written on a thread after the wait fence (which covers the allocation).
  std::shared_ptr<NativeModule> repeatModule(Make make) {
    auto m = std::make_shared<NativeModule>("Repeat");
    EXPECT_TRUE(
        m->addFunction(
             {"function",
              {K::kRef, K::kRef, K::kRef},
              {K::kRef},
              kImportCoarseFences,
              [this, make](std::span<const Value> args,
                           CallContext &call) -> Result<std::vector<Value>> {
                auto in = args[0].refAs<hal::BufferView>();
                auto wait = args[1].refAs<hal::Fence>();
                auto signal = args[2].refAs<hal::Fence>();
                if (make == Make::kForeign) {
                  signal->signal();
                  return std::vector<Value>{Value(in)};
                }
                int64_t n = 2 * in->shape()[0];
                FERRY_ASSIGN_OR_RETURN(
                    std::shared_ptr<hal::BufferView> out,
                    call.allocateResult(make == Make::kWrongIndex ? 1 : 0,
                                        std::vector<int64_t>{n},
                                        ElementType::kI32));
                if (make == Make::kTwice)
                  FERRY_RETURN_IF_ERROR(
                      call.allocateResult(0, std::vector<int64_t>{n},
                                          ElementType::kI32)
                          .status());
                threads.emplace_back([=] {
                  Status waited = wait->wait();
                  if (!waited.ok())
                    return signal->fail(waited);
                  const auto *src =
                      reinterpret_cast<const int32_t *>(in->buffer()->data());
                  auto *dst =
                      reinterpret_cast<int32_t *>(out->buffer()->data());
                  for (int64_t i = 0; i < n; ++i)
                    dst[i] = src[i % (n / 2)];
                  signal->signal();
                });
                return std::vector<Value>{Value(out)};
              }})
            .ok());
    return m;
  }

  // main(view) -> view: Repeat.function(in, device, memtype, usage, wait,
  // signal), await, return the new result.
  static BytecodeWriter callerModule() {
    BytecodeWriter w;
    w.device("device_a");
    uint32_t repeat =
        w.import("Repeat.function",
                 {K::kRef, K::kRef, K::kI64, K::kI64, K::kRef, K::kRef},
                 {K::kRef}, kImportCoarseFences | kImportResultAllocation);
    // i64: 0 memtype, 1 usage; refs: 0 in, 1 device, 2 signal, 3 result,
    // 4 wait (nothing to wait for).
    auto &f = w.function("main", {K::kRef}, {K::kRef}, 2, 5);
    f.constI64(0, hal::kHostVisible | hal::kDeviceVisible)
        .constI64(1, hal::kTransfer | hal::kDispatchStorage | hal::kMapping)
        .deviceGet(1, 0)
        .fenceJoin(4, {})
        .fenceCreate(2, 1)
        .callImport(repeat,
                    {{K::kRef, 0},
                     {K::kRef, 1},
                     {K::kI64, 0},
                     {K::kI64, 1},
                     {K::kRef, 4},
                     {K::kRef, 2}},
                    {{K::kRef, 3}})
        .fenceAwait({2})
        .ret({{K::kRef, 3}});
    return w;
  }
};

TEST_F(NewResultsTest, CalleeAllocatesTheResultOnTheRequestedDevice) {
  Result<Context> context =
      create(callerModule(), {repeatModule(Make::kAllocate)});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  {
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input({1, -2, 3}))});
    ASSERT_TRUE(results.ok()) << results.status().toString();
    auto out = (*results)[0].refAs<hal::BufferView>();
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->shape()[0], 6);
    const auto *data = reinterpret_cast<const int32_t *>(out->buffer()->data());
    EXPECT_EQ(std::vector<int32_t>(data, data + 6),
              (std::vector<int32_t>{1, -2, 3, 1, -2, 3}));
    EXPECT_EQ(out->buffer()->placement().device.lock(), device);
    EXPECT_EQ(out->buffer()->usage() & hal::kDispatchStorage,
              uint32_t(hal::kDispatchStorage));
  }
}

TEST_F(NewResultsTest, ResultNotAllocatedForItNamesFunctionAndResult) {
  for (auto [make, why] :
       {std::pair(Make::kForeign,
                  "new result 0 was not allocated with result_allocate"),
        std::pair(Make::kWrongIndex,
                  "result_allocate: result 1 does not exist"),
        std::pair(Make::kTwice,
                  "result_allocate: result 0 was allocated already")}) {
    Result<Context> context = create(callerModule(), {repeatModule(make)});
    ASSERT_TRUE(context.ok()) << context.status().toString();
    Result<std::vector<Value>> results =
        context->invoke("main", {Value(input({1}))});
    ASSERT_FALSE(results.ok()) << why;
    EXPECT_NE(
        results.status().message().find("external function 'Repeat.function'"),
        std::string::npos)
        << results.status().message();
    EXPECT_NE(results.status().message().find(why), std::string::npos)
        << results.status().message();
  }
}

} // namespace
} // namespace ferry::vm
