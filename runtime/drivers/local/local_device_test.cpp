#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"

#include <cstring>
#include <gtest/gtest.h>
#include <limits>

namespace ferry::drivers::local {
namespace {

using hal::Buffer;
using hal::BuiltinKernel;
using hal::ElementType;
using hal::Fence;

class LocalSyncDeviceTest : public ::testing::Test {
protected:
  std::shared_ptr<LocalDevice> device = LocalDevice::create("cpu0");
  static constexpr uint32_t kUsage = hal::kTransfer | hal::kDispatchStorage;

  template <typename T> std::shared_ptr<Buffer> upload(std::vector<T> values) {
    auto buffer =
        *device->allocator().allocate(0, kUsage, values.size() * sizeof(T));
    std::memcpy(buffer->data(), values.data(), values.size() * sizeof(T));
    return buffer;
  }
  template <typename T>
  std::vector<T> download(const std::shared_ptr<Buffer> &buffer, size_t n) {
    std::vector<T> values(n);
    std::memcpy(values.data(), buffer->data(), n * sizeof(T));
    return values;
  }

  template <typename T>
  std::vector<T> run(BuiltinKernel kernel, ElementType type, std::vector<T> a,
                     std::vector<T> b) {
    auto out = *device->allocator().allocate(0, kUsage, a.size() * sizeof(T));
    std::vector<std::shared_ptr<Buffer>> bindings = {upload(a), upload(b), out};
    auto signal = Fence::create();
    Status status = device->queueDispatch(nullptr, signal, kernel, type,
                                          a.size(), bindings);
    EXPECT_TRUE(status.ok()) << status.toString();
    EXPECT_TRUE(signal->wait().ok());
    return download<T>(out, a.size());
  }
};

TEST_F(LocalSyncDeviceTest, IntegerKernelsWrap) {
  using L8 = std::numeric_limits<int8_t>;
  EXPECT_EQ(run<int8_t>(BuiltinKernel::kAdd, ElementType::kI8, {1, L8::max()},
                        {2, 1}),
            (std::vector<int8_t>{3, L8::min()}));
  EXPECT_EQ(
      run<int8_t>(BuiltinKernel::kMul, ElementType::kI8, {16, -3}, {16, 5}),
      (std::vector<int8_t>{0, -15}));
  using L16 = std::numeric_limits<int16_t>;
  EXPECT_EQ(run<int16_t>(BuiltinKernel::kSub, ElementType::kI16,
                         {L16::min(), 7}, {1, 9}),
            (std::vector<int16_t>{L16::max(), -2}));
  EXPECT_EQ(run<int16_t>(BuiltinKernel::kMul, ElementType::kI16, {L16::max()},
                         {L16::max()}),
            (std::vector<int16_t>{1}));
  using L32 = std::numeric_limits<int32_t>;
  EXPECT_EQ(run<int32_t>(BuiltinKernel::kAdd, ElementType::kI32,
                         {1, 2, 3, L32::max()}, {10, 20, 30, 1}),
            (std::vector<int32_t>{11, 22, 33, L32::min()}));
  EXPECT_EQ(run<int32_t>(BuiltinKernel::kMul, ElementType::kI32,
                         {L32::min(), 65536}, {-1, 65536}),
            (std::vector<int32_t>{L32::min(), 0}));
  using L64 = std::numeric_limits<int64_t>;
  EXPECT_EQ(run<int64_t>(BuiltinKernel::kSub, ElementType::kI64,
                         {L64::min(), 5}, {1, 8}),
            (std::vector<int64_t>{L64::max(), -3}));
  EXPECT_EQ(run<int64_t>(BuiltinKernel::kMul, ElementType::kI64,
                         {L64::max(), -4}, {2, 6}),
            (std::vector<int64_t>{-2, -24}));
}

TEST_F(LocalSyncDeviceTest, FloatKernels) {
  EXPECT_EQ(run<float>(BuiltinKernel::kAdd, ElementType::kF32, {1.5f, -2},
                       {0.25f, 2}),
            (std::vector<float>{1.75f, 0}));
  EXPECT_EQ(run<float>(BuiltinKernel::kMul, ElementType::kF32, {3, 1e30f},
                       {0.5f, 1e30f}),
            (std::vector<float>{1.5f, std::numeric_limits<float>::infinity()}));
  EXPECT_EQ(run<double>(BuiltinKernel::kSub, ElementType::kF64, {1.0, 0.5},
                        {0.25, 2}),
            (std::vector<double>{0.75, -1.5}));
  EXPECT_EQ(run<double>(BuiltinKernel::kMul, ElementType::kF64, {1e-3}, {1e3}),
            (std::vector<double>{1e-3 * 1e3}));
}

TEST_F(LocalSyncDeviceTest, DispatchCountsAndInPlace) {
  auto a = upload<int32_t>({1, 2});
  std::vector<std::shared_ptr<Buffer>> bindings = {a, a, a};
  ASSERT_TRUE(device
                  ->queueDispatch(nullptr, Fence::create(), BuiltinKernel::kAdd,
                                  ElementType::kI32, 2, bindings)
                  .ok());
  EXPECT_EQ(download<int32_t>(a, 2), (std::vector<int32_t>{2, 4}));
  EXPECT_EQ(device->statistics().dispatches, 1u);
}

TEST_F(LocalSyncDeviceTest, TooSmallBufferIsNamedAndFailsTheFence) {
  std::vector<std::shared_ptr<Buffer>> bindings = {
      upload<int32_t>({1, 2, 3, 4}), upload<int32_t>({1, 2, 3}),
      upload<int32_t>({0, 0, 0, 0})};
  auto signal = Fence::create();
  Status status = device->queueDispatch(nullptr, signal, BuiltinKernel::kAdd,
                                        ElementType::kI32, 4, bindings);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "queue dispatch on device 'cpu0': kernel 'add': binding 1 (input "
            "1) has 12 bytes but 4 x i32 needs 16");
  EXPECT_EQ(signal->wait().message(), status.message());
  EXPECT_EQ(device->statistics().dispatches, 0u);
}

TEST_F(LocalSyncDeviceTest, WrongBindingCountAndNullBinding) {
  auto a = upload<int32_t>({1});
  std::vector<std::shared_ptr<Buffer>> two = {a, a};
  Status status = device->queueDispatch(
      nullptr, Fence::create(), BuiltinKernel::kMul, ElementType::kI32, 1, two);
  EXPECT_NE(status.message().find("takes 3 bindings (2 inputs then the "
                                  "output), got 2"),
            std::string::npos)
      << status.message();
  std::vector<std::shared_ptr<Buffer>> withNull = {a, nullptr, a};
  status = device->queueDispatch(nullptr, Fence::create(), BuiltinKernel::kMul,
                                 ElementType::kI32, 1, withNull);
  EXPECT_NE(status.message().find("binding 1 (input 1) is null"),
            std::string::npos);
  status = device->queueDispatch(nullptr, Fence::create(), BuiltinKernel(99),
                                 ElementType::kI32, 1, withNull);
  EXPECT_NE(status.message().find("unknown built-in kernel 99"),
            std::string::npos);
}

TEST_F(LocalSyncDeviceTest, FailedWaitFencePropagates) {
  auto wait = Fence::create();
  wait->fail(dataLoss("upstream broke"));
  auto signal = Fence::create();
  auto buffer = device->queueAlloca(wait, signal, 0, 0, 16, 0);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().message(), "upstream broke");
  EXPECT_EQ(signal->wait().message(), "upstream broke");
  EXPECT_EQ(device->allocator().statistics().allocations, 0u);
}

TEST_F(LocalSyncDeviceTest, AllocaDeallocaOrderAndCount) {
  auto first = Fence::create();
  auto buffer = device->queueAlloca(nullptr, first, 0, 0, 64, 0);
  ASSERT_TRUE(buffer.ok());
  EXPECT_TRUE(first->wait().ok());
  EXPECT_EQ(device->allocator().statistics().liveBytes, 64u);
  auto second = Fence::create();
  ASSERT_TRUE(device->queueDealloca(first, second, *buffer, 0).ok());
  EXPECT_TRUE(second->wait().ok());
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
  EXPECT_EQ(device->allocator().statistics().deallocations, 1u);
  // A second dealloca is an error; so is using the husk.
  auto third = Fence::create();
  Status again = device->queueDealloca(second, third, *buffer, 0);
  EXPECT_TRUE(failedWith(again, StatusCode::kFailedPrecondition,
                         "was already deallocated (a second dealloca"));
  EXPECT_TRUE(failedWith(third->wait(), StatusCode::kFailedPrecondition,
                         "was already deallocated (a second dealloca"));
  std::vector<std::shared_ptr<Buffer>> bindings = {*buffer, *buffer, *buffer};
  Status use =
      device->queueDispatch(nullptr, Fence::create(), BuiltinKernel::kAdd,
                            ElementType::kI8, 1, bindings);
  EXPECT_TRUE(failedWith(use, StatusCode::kFailedPrecondition,
                         "was already deallocated"));
}

TEST_F(LocalSyncDeviceTest, IndeterminateLifetimeIgnoresDealloca) {
  auto buffer = device->queueAlloca(nullptr, Fence::create(), 0, 0, 8,
                                    hal::kQueueAllocaIndeterminateLifetime);
  ASSERT_TRUE(buffer.ok());
  auto signal = Fence::create();
  EXPECT_TRUE(device->queueDealloca(nullptr, signal, *buffer, 0).ok());
  EXPECT_TRUE(signal->wait().ok());
  EXPECT_FALSE((*buffer)->isReleased());
  buffer = internalError("drop");
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_F(LocalSyncDeviceTest, UnknownFlagsAndNullSignal) {
  auto signal = Fence::create();
  auto buffer = device->queueAlloca(nullptr, signal, 0, 0, 8, 0x80);
  EXPECT_TRUE(
      failedWith(buffer, StatusCode::kInvalidArgument, "unknown flags 0x80"));
  EXPECT_TRUE(failedWith(signal->wait(), StatusCode::kInvalidArgument,
                         "unknown flags 0x80"));
  auto noSignal = device->queueAlloca(nullptr, nullptr, 0, 0, 8, 0);
  EXPECT_TRUE(failedWith(noSignal, StatusCode::kInvalidArgument,
                         "signal fence is null"));
}

} // namespace
} // namespace ferry::drivers::local
