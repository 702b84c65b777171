// The queue fill / copy / conditional dealloca and buffer ownership opcodes,
// run through the interpreter on a local device.
#include <cstring>
#include <gtest/gtest.h>

#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/queue_flags.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using bytecode::kNoRegister;
using hal::ElementType;
using testing::BytecodeWriter;
using K = RegisterKind;

class OpcodeTest : public ::testing::Test {
protected:
  std::shared_ptr<hal::Device> device =
      drivers::local::LocalDevice::create("device_a");

  Result<Context> makeContext(const BytecodeWriter &w) {
    Result<Module> module = Module::load(w.finish());
    if (!module.ok())
      return module.status();
    auto shared = std::make_shared<const Module>(std::move(*module));
    return Context::create(shared, {device});
  }

  // Common prologue: i64 0 memtype, 1 usage, 2 size; ref 0 device, 1 fence.
  static void prologue(BytecodeWriter::FunctionBuilder &f, int64_t size) {
    f.deviceGet(0, 0)
        .constI64(0, hal::kHostVisible | hal::kDeviceVisible)
        .constI64(1, hal::kTransfer | hal::kDispatchStorage | hal::kMapping)
        .constI64(2, size)
        .fenceCreate(1, 0);
  }

  static std::vector<int32_t> read(const Value &value) {
    auto v = value.refAs<hal::BufferView>();
    std::vector<int32_t> out(v->elementCount());
    std::memcpy(out.data(), v->buffer()->data(), out.size() * sizeof(int32_t));
    return out;
  }
};

TEST_F(OpcodeTest, FillAndCopy) {
  BytecodeWriter w;
  w.device("device_a");
  // i64: 3 zero, 4 pattern, 5 eight, 6 four; refs: 2 a, 3 b, 4-7 fences,
  // 8 view a, 9 view b.
  auto &f = w.function("main", {}, {K::kRef, K::kRef}, 8, 10);
  prologue(f, 16);
  f.constI64(3, 0)
      .constI64(4, 0x01020304)
      .constI64(5, 8)
      .constI64(6, 4)
      .fenceCreate(4, 0)
      .queueAlloca(2, 0, kNoRegister, 4, 0, 1, 2)
      .queueAlloca(3, 0, 4, 1, 0, 1, 2)
      // a = 4 x 0x01020304 (4-byte pattern)
      .fenceCreate(5, 0)
      .queueFill(0, 1, 5, 2, 3, 2, 4, 4)
      .constI64(7, -1)
      .fenceCreate(6, 0)
      .queueFill(0, 5, 6, 3, 3, 2, 7, 1) // b = 0xff bytes (1-byte pattern)
      .fenceCreate(7, 0)
      // b[4..12) = a[0..8)
      .queueCopy(0, 6, 7, 2, 3, 3, 6, 5)
      .fenceAwait({7})
      .viewCreate(8, 2, ElementType::kI32, {6})
      .viewCreate(9, 3, ElementType::kI32, {6})
      .ret({{K::kRef, 8}, {K::kRef, 9}});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ(
      read((*results)[0]),
      (std::vector<int32_t>{0x01020304, 0x01020304, 0x01020304, 0x01020304}));
  EXPECT_EQ(read((*results)[1]),
            (std::vector<int32_t>{-1, 0x01020304, 0x01020304, -1}));
  EXPECT_EQ(device->statistics().fills, 2u);
  EXPECT_EQ(device->statistics().copies, 1u);
  EXPECT_EQ(device->statistics().bytesCopied, 8u);
}

TEST_F(OpcodeTest, FillAndCopyRejectNegativeSizesAndFailTheSignal) {
  BytecodeWriter w;
  w.device("device_a");
  auto &f = w.function("main", {}, {}, 4, 4);
  prologue(f, 16);
  f.constI64(3, -4)
      .queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .fenceCreate(3, 0)
      .queueFill(0, 1, 3, 2, 3, 2, 2, 4)
      .ret({});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find(
                "(hal.device.queue.fill): fill offset -4 is negative"),
            std::string::npos)
      << results.status().toString();

  BytecodeWriter c;
  c.device("device_a");
  auto &g = c.function("main", {}, {}, 4, 4);
  prologue(g, 16);
  g.constI64(3, -1)
      .queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .fenceCreate(3, 0)
      .queueCopy(0, 1, 3, 2, 2, 2, 2, 3)
      .ret({});
  context = makeContext(c);
  ASSERT_TRUE(context.ok());
  results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("copy length -1 is negative"),
            std::string::npos)
      << results.status().toString();
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_F(OpcodeTest, CopyOutOfRangeFails) {
  BytecodeWriter w;
  w.device("device_a");
  auto &f = w.function("main", {}, {}, 4, 4);
  prologue(f, 16);
  f.constI64(3, 12)
      .queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .fenceCreate(3, 0)
      .queueCopy(0, 1, 3, 2, 3, 2, 3, 2) // 16 bytes from offset 12
      .fenceAwait({3})
      .ret({});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok());
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("hal.device.queue.copy"),
            std::string::npos)
      << results.status().toString();
}

// dealloca.if frees when the condition is non-zero and otherwise only orders
// the timeline (a barrier).
TEST_F(OpcodeTest, DeallocaIf) {
  for (int64_t condition : {0, 1, 7}) {
    auto dev = drivers::local::LocalDevice::create("device_a");
    device = dev;
    BytecodeWriter w;
    w.device("device_a");
    auto &f = w.function("main", {}, {K::kI64}, 5, 4);
    prologue(f, 64);
    f.constI64(3, condition)
        .queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
        .fenceCreate(3, 0)
        .queueDeallocaIf(0, 1, 3, 2, hal::kQueueDeallocaPreferOrigin, 3)
        .fenceAwait({3})
        .bufferLength(4, 2)
        .ret({{K::kI64, 4}});
    Result<Context> context = makeContext(w);
    ASSERT_TRUE(context.ok()) << context.status().toString();
    Result<std::vector<Value>> results = context->invoke("main", {});
    ASSERT_TRUE(results.ok()) << results.status().toString();
    hal::DeviceStatistics stats = dev->statistics();
    EXPECT_EQ(stats.deallocas, condition ? 1u : 0u) << condition;
    EXPECT_EQ(stats.barriers, condition ? 0u : 1u) << condition;
    results = internalError("drop");
    EXPECT_EQ(dev->allocator().statistics().liveBytes, 0u);
  }
}

TEST_F(OpcodeTest, OwnershipOpcodes) {
  BytecodeWriter w;
  w.device("device_a");
  // Results: terminal at first, after preserve, discard (not last), discard
  // (last), is_terminal of a null ref, discard of a null ref.
  auto &f = w.function(
      "main", {}, {K::kI64, K::kI64, K::kI64, K::kI64, K::kI64, K::kI64}, 9, 4);
  prologue(f, 16);
  f.queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .fenceAwait({1})
      .bufferIsTerminal(3, 2)
      .bufferPreserve(2)
      .bufferIsTerminal(4, 2)
      .bufferDiscard(5, 2)
      .bufferDiscard(6, 2)
      .bufferIsTerminal(7, 3) // ref 3 was never set: null
      .bufferPreserve(3)
      .bufferDiscard(8, 3)
      .ret({{K::kI64, 3},
            {K::kI64, 4},
            {K::kI64, 5},
            {K::kI64, 6},
            {K::kI64, 7},
            {K::kI64, 8}});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  std::vector<int64_t> got;
  for (const Value &value : *results)
    got.push_back(value.i64());
  EXPECT_EQ(got, (std::vector<int64_t>{1, 0, 0, 1, 0, 0}));
}

TEST_F(OpcodeTest, OwnershipOpcodesCheckTypesAndUnderflow) {
  BytecodeWriter w;
  w.device("device_a");
  auto &f = w.function("main", {}, {}, 4, 4);
  prologue(f, 16);
  f.bufferPreserve(0) // a device, not a buffer
      .ret({});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok());
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("(hal.buffer.allocation.preserve): "
                                            "buffer (ref register 0) holds a "
                                            "device, expected a buffer"),
            std::string::npos)
      << results.status().toString();

  BytecodeWriter u;
  u.device("device_a");
  auto &g = u.function("main", {}, {}, 5, 4);
  prologue(g, 16);
  g.queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .bufferDiscard(3, 2)
      .bufferDiscard(4, 2) // below zero
      .ret({});
  context = makeContext(u);
  ASSERT_TRUE(context.ok());
  results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("hal.buffer.allocation.discard"),
            std::string::npos)
      << results.status().toString();
}

// hal.device.constant: the module's bytes as a read-only buffer, the same
// buffer every time on one device, aligned for kernels, never counted as an
// allocation, and refused as a write target.
TEST_F(OpcodeTest, ConstantsAreSharedReadOnlyBuffers) {
  BytecodeWriter w;
  w.device("device_a");
  w.constant({1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0});
  // i64 0: 4; refs: 0 device, 1 and 2 the constant, 3 view.
  auto &f = w.function("main", {}, {K::kRef, K::kRef}, 1, 4);
  f.deviceGet(0, 0)
      .deviceConstant(1, 0, 0)
      .deviceConstant(2, 0, 0)
      .constI64(0, 4)
      .viewCreate(3, 1, ElementType::kI32, {0})
      .ret({{K::kRef, 3}, {K::kRef, 2}});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ(read((*results)[0]), (std::vector<int32_t>{1, 2, 3, 4}));
  auto buffer = (*results)[1].refAs<hal::Buffer>();
  EXPECT_EQ(buffer, (*results)[0].refAs<hal::BufferView>()->buffer());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) %
                Module::kConstantAlignment,
            0u);
  EXPECT_FALSE(buffer->usage() & hal::kDispatchStorageWrite);
  EXPECT_FALSE(buffer->usage() & hal::kTransferTarget);
  // A second invocation reads the same storage.
  Result<std::vector<Value>> again = context->invoke("main", {});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[1].refAs<hal::Buffer>(), buffer);
  hal::AllocatorStatistics stats = device->allocator().statistics();
  EXPECT_EQ(stats.allocations, 0u);
  EXPECT_EQ(stats.constantBytes, 16u);
  // The buffer keeps the bytes alive after the context and module are gone.
  results->clear();
  again->clear();
  context = makeContext(BytecodeWriter());
  EXPECT_EQ(std::memcmp(buffer->data(), "\1\0\0\0\2\0\0\0", 8), 0);
}

TEST_F(OpcodeTest, WritingAConstantIsRefused) {
  BytecodeWriter w;
  w.device("device_a");
  w.constant(std::vector<uint8_t>(16, 1));
  // i64 0: 4; refs: 0 device, 1 constant, 2 fence.
  auto &f = w.function("main", {}, {}, 1, 3);
  f.deviceGet(0, 0)
      .deviceConstant(1, 0, 0)
      .constI64(0, 4)
      .fenceCreate(2, 0)
      .queueDispatch(0, kNoRegister, 2, hal::BuiltinKernel::kAdd,
                     ElementType::kI32, 0, {1, 1, 1})
      .fenceAwait({2})
      .ret({});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find("DispatchStorageWrite"),
            std::string::npos)
      << results.status().toString();
}

// hal.buffer.load reads one element, sign-extended (a float as its bit
// pattern), through a mapping where the host can map the buffer and through
// a staging copy on the buffer's device where it cannot; an offset past the
// end fails naming the op.
class BufferLoadTest : public OpcodeTest,
                       public ::testing::WithParamInterface<bool> {};

TEST_P(BufferLoadTest, ReadsElements) {
  bool discrete = GetParam();
  if (discrete)
    device =
        drivers::local::LocalDevice::create("device_a", {.discrete = true});
  BytecodeWriter w;
  w.device("device_a");
  // i64: 3 pattern, 4 zero, 5 one, 6 twelve, 7.. loads; refs: 2 buffer,
  // 3 fence.
  auto &f = w.function("main", {},
                       {K::kI64, K::kI64, K::kI64, K::kI64, K::kI64}, 12, 4);
  f.deviceGet(0, 0)
      .constI64(0, discrete ? hal::kDeviceLocal
                            : hal::kHostVisible | hal::kDeviceVisible)
      .constI64(1, discrete ? hal::kTransfer | hal::kDispatchStorage
                            : hal::kTransfer | hal::kMapping)
      .constI64(2, 16)
      .fenceCreate(1, 0)
      .queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .constI64(3, int64_t(0xC0490FDBu)) // the f32 -3.14159274
      .constI64(4, 0)
      .constI64(5, 1)
      .constI64(6, 12)
      .fenceCreate(3, 0)
      .queueFill(0, 1, 3, 2, 4, 2, 3, 4)
      .fenceAwait({3})
      .bufferLoad(7, 2, 4, ElementType::kI32)
      .bufferLoad(8, 2, 6, ElementType::kF32)
      .bufferLoad(9, 2, 5, ElementType::kI8) // 0x0F
      .bufferLoad(10, 2, 4, ElementType::kI64)
      .bufferLoad(11, 2, 6, ElementType::kI16) // 0x0FDB
      .ret({{K::kI64, 7},
            {K::kI64, 8},
            {K::kI64, 9},
            {K::kI64, 10},
            {K::kI64, 11}});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_TRUE(results.ok()) << results.status().toString();
  EXPECT_EQ((*results)[0].i64(), int64_t(int32_t(0xC0490FDBu)));
  EXPECT_EQ((*results)[1].i64(), int64_t(int32_t(0xC0490FDBu)));
  float value;
  uint32_t bits = uint32_t((*results)[1].i64());
  std::memcpy(&value, &bits, 4);
  EXPECT_FLOAT_EQ(value, -3.14159274f);
  EXPECT_EQ((*results)[2].i64(), 0x0F);
  EXPECT_EQ((*results)[3].i64(), int64_t(0xC0490FDBC0490FDBull));
  EXPECT_EQ((*results)[4].i64(), 0x0FDB);
}

TEST_P(BufferLoadTest, OutOfBoundsFails) {
  if (GetParam())
    device =
        drivers::local::LocalDevice::create("device_a", {.discrete = true});
  BytecodeWriter w;
  w.device("device_a");
  auto &f = w.function("main", {}, {K::kI64}, 5, 4);
  prologue(f, 16);
  f.queueAlloca(2, 0, kNoRegister, 1, 0, 1, 2)
      .fenceAwait({1})
      .constI64(3, 13)
      .bufferLoad(4, 2, 3, ElementType::kI32) // bytes 13..17 of 16
      .ret({{K::kI64, 4}});
  Result<Context> context = makeContext(w);
  ASSERT_TRUE(context.ok()) << context.status().toString();
  Result<std::vector<Value>> results = context->invoke("main", {});
  ASSERT_FALSE(results.ok());
  EXPECT_NE(results.status().message().find(
                "(hal.buffer.load): reading i32 at byte offset 13 is out of "
                "bounds of"),
            std::string::npos)
      << results.status().toString();
}

INSTANTIATE_TEST_SUITE_P(HostVisibleAndDiscrete, BufferLoadTest,
                         ::testing::Bool(), [](const auto &info) {
                           return info.param ? "Discrete" : "HostVisible";
                         });

} // namespace
} // namespace ferry::vm
