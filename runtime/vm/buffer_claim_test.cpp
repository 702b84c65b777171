// hal.buffer.allocation.claim (opcode 0x63): what runtime/hal/buffer_claim.h
// does with a buffer a caller handed over, on every kind of local device,
// and what the interpreter does with it: the buffer itself when the program
// is its only owner, a copy it alone owns when the caller kept a share, and
// errors naming the buffer.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/buffer_claim.h"
#include "runtime/vm/context.h"
#include "runtime/vm/testing/bytecode_writer.h"

namespace ferry::vm {
namespace {

using testing::BytecodeWriter;
using K = RegisterKind;
using drivers::local::LocalDevice;
using drivers::local::LocalDeviceOptions;

::testing::AssertionResult okWith(const Status &status) {
  if (status.ok())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.toString();
}

constexpr uint32_t kUsage = hal::kTransfer | hal::kDispatchStorage;

std::shared_ptr<hal::Device> makeDevice(const std::string &kind) {
  if (kind == "discrete")
    return LocalDevice::create("d", LocalDeviceOptions{.discrete = true});
  if (kind == "task")
    return LocalDevice::create("t", LocalDeviceOptions{.asynchronous = true});
  return LocalDevice::create("s");
}

class BufferClaimTest : public ::testing::TestWithParam<std::string> {
protected:
  std::shared_ptr<hal::Device> device = makeDevice(GetParam());

  // A 16-byte buffer on `device` holding 0, 1, ..., 15, written by a queue
  // fill per word so that discrete memory works too.
  std::shared_ptr<hal::Buffer> filledBuffer() {
    auto buffer = device->allocator().allocate(hal::kDeviceLocal, kUsage, 16);
    EXPECT_TRUE(buffer.ok()) << buffer.status().toString();
    for (uint32_t word = 0; word < 4; ++word) {
      auto fence = hal::Fence::create();
      uint32_t pattern = 0;
      for (uint32_t byte = 0; byte < 4; ++byte)
        pattern |= (word * 4 + byte) << (8 * byte);
      EXPECT_TRUE(okWith(
          device->queueFill(nullptr, fence, *buffer, word * 4, 4, pattern, 4)));
      EXPECT_TRUE(okWith(fence->wait()));
    }
    return *buffer;
  }

  // The bytes of `buffer`, copied out through a host-visible buffer.
  std::vector<uint8_t> bytesOf(const std::shared_ptr<hal::Buffer> &buffer) {
    auto host = device->allocator().allocate(
        hal::kHostVisible | hal::kHostCoherent, hal::kTransfer | hal::kMapping,
        buffer->byteLength());
    EXPECT_TRUE(host.ok()) << host.status().toString();
    auto fence = hal::Fence::create();
    EXPECT_TRUE(okWith(device->queueCopy(nullptr, fence, buffer, 0, *host, 0,
                                         buffer->byteLength())));
    EXPECT_TRUE(okWith(fence->wait()));
    auto mapped = (*host)->map(hal::MappingMode::kScoped);
    EXPECT_TRUE(mapped.ok()) << mapped.status().toString();
    return std::vector<uint8_t>(mapped->begin(), mapped->end());
  }
};

TEST_P(BufferClaimTest, OnlyOwnerGetsTheBufferItself) {
  auto buffer = filledBuffer();
  uint64_t allocations = device->allocator().statistics().allocations;
  Result<std::shared_ptr<hal::Buffer>> claimed =
      hal::claimBuffer(*device, buffer);
  ASSERT_TRUE(claimed.ok()) << claimed.status().toString();
  EXPECT_EQ(claimed->get(), buffer.get());
  EXPECT_EQ(buffer->ownerCount(), 1);
  EXPECT_EQ(device->allocator().statistics().allocations, allocations);
}

TEST_P(BufferClaimTest, SharedBufferIsCopiedAndTheShareDropped) {
  auto buffer = filledBuffer();
  buffer->preserve(); // the caller keeps a share: 2 owners
  Result<std::shared_ptr<hal::Buffer>> claimed =
      hal::claimBuffer(*device, buffer);
  ASSERT_TRUE(claimed.ok()) << claimed.status().toString();
  ASSERT_NE(claimed->get(), buffer.get());
  // The program's share of the original is gone; the caller's remains.
  EXPECT_EQ(buffer->ownerCount(), 1);
  EXPECT_TRUE((*claimed)->isTerminal());
  EXPECT_EQ((*claimed)->memoryType(), buffer->memoryType());
  EXPECT_EQ((*claimed)->usage() & buffer->usage(), buffer->usage());
  std::vector<uint8_t> expected(16);
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] = uint8_t(i);
  EXPECT_EQ(bytesOf(*claimed), expected);
  // Writing the claimed copy leaves the caller's bytes alone.
  auto fence = hal::Fence::create();
  ASSERT_TRUE(
      okWith(device->queueFill(nullptr, fence, *claimed, 0, 16, 0xff, 1)));
  ASSERT_TRUE(okWith(fence->wait()));
  EXPECT_EQ(bytesOf(buffer), expected);
}

TEST_P(BufferClaimTest, ReleasedBufferIsAnErrorNamingIt) {
  auto buffer = filledBuffer();
  ASSERT_TRUE(okWith(buffer->release()));
  Result<std::shared_ptr<hal::Buffer>> claimed =
      hal::claimBuffer(*device, buffer);
  EXPECT_TRUE(
      failedWith(claimed.status(), StatusCode::kFailedPrecondition, "claim"));
  EXPECT_FALSE(hal::claimBuffer(*device, nullptr).ok());
}

TEST_P(BufferClaimTest, MissingTransferSourceIsAnErrorNamingTheBit) {
  auto buffer = device->allocator().allocate(
      hal::kDeviceLocal, hal::kTransferTarget | hal::kDispatchStorage, 16);
  ASSERT_TRUE(buffer.ok()) << buffer.status().toString();
  (*buffer)->preserve();
  Result<std::shared_ptr<hal::Buffer>> claimed =
      hal::claimBuffer(*device, *buffer);
  EXPECT_TRUE(failedWith(claimed.status(), StatusCode::kFailedPrecondition,
                         "TransferSource"));
  // Nothing was taken: both shares remain.
  EXPECT_EQ((*buffer)->ownerCount(), 2);
}

INSTANTIATE_TEST_SUITE_P(LocalDevices, BufferClaimTest,
                         ::testing::Values("sync", "task", "discrete"));

// The interpreter: `f(buffer) -> buffer` claims its argument on its device.
TEST(BufferClaimRunTest, InterpreterReturnsTheClaimedBuffer) {
  BytecodeWriter w;
  w.device("a");
  auto &f = w.function("f", {K::kRef}, {K::kRef}, 0, 3);
  f.deviceGet(1, 0).bufferClaim(2, 1, 0).ret({{K::kRef, 2}});
  Result<Module> loaded = Module::load(w.finish());
  ASSERT_TRUE(loaded.ok()) << loaded.status().toString();
  auto module = std::make_shared<const Module>(std::move(*loaded));
  std::shared_ptr<hal::Device> device = LocalDevice::create("a");
  auto context = Context::create(module, {device});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto buffer = device->allocator().allocate(hal::kHostVisible, kUsage, 8);
  ASSERT_TRUE(buffer.ok()) << buffer.status().toString();

  auto own = context->invoke("f", {Value(*buffer)});
  ASSERT_TRUE(own.ok()) << own.status().toString();
  EXPECT_EQ(own->at(0).refAs<hal::Buffer>().get(), buffer->get());

  (*buffer)->preserve();
  auto copy = context->invoke("f", {Value(*buffer)});
  ASSERT_TRUE(copy.ok()) << copy.status().toString();
  EXPECT_NE(copy->at(0).refAs<hal::Buffer>().get(), buffer->get());
  EXPECT_EQ((*buffer)->ownerCount(), 1);

  ASSERT_TRUE(okWith((*buffer)->release()));
  auto released = context->invoke("f", {Value(*buffer)});
  EXPECT_TRUE(
      failedWith(released.status(), StatusCode::kFailedPrecondition, "claim"));
}

} // namespace
} // namespace ferry::vm
