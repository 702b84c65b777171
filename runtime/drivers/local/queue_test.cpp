// Queue operations on every local driver configuration: alloca / dealloca
// policy (ARCHITECTURE 1.2), pooling, barrier, fill, copy, host calls.
// Tests wait on fences rather than on return values, so they hold for the
// asynchronous local-task device too.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <gtest/gtest.h>
#include <thread>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/topology.h"

namespace ferry::drivers::local {
namespace {

using hal::Buffer;
using hal::Fence;
using namespace hal;

constexpr uint32_t kUsage = kTransfer | kDispatchStorage | kMapping;

class QueueTest : public ::testing::TestWithParam<LocalDeviceOptions> {
protected:
  std::shared_ptr<LocalDevice> make(std::string_view name) {
    return LocalDevice::create(name, GetParam());
  }
  std::shared_ptr<LocalDevice> device = make("a");

  std::shared_ptr<Buffer> allocate(Device &on, uint64_t size,
                                   uint32_t flags = 0,
                                   std::shared_ptr<Fence> wait = nullptr) {
    auto signal = Fence::create();
    auto buffer =
        on.queueAlloca(wait, signal, kHostVisible, kUsage, size, flags);
    EXPECT_TRUE(buffer.ok()) << buffer.status().toString();
    Status status = signal->wait();
    EXPECT_TRUE(status.ok()) << status.toString();
    return *buffer;
  }
  Status dealloca(Device &on, const std::shared_ptr<Buffer> &buffer,
                  uint32_t flags = 0) {
    auto signal = Fence::create();
    Status submitted = on.queueDealloca(nullptr, signal, buffer, flags);
    Status done = signal->wait();
    if (!submitted.ok()) {
      EXPECT_EQ(submitted.message(), done.message());
    }
    return done;
  }
};

TEST_P(QueueTest, AllocaIsPooledAndStreamOrdered) {
  auto first = allocate(*device, 1000);
  uint8_t *memory = first->data();
  ASSERT_NE(memory, nullptr);
  EXPECT_TRUE(first->placement().flags & kBufferPlacementAsynchronous);
  EXPECT_EQ(first->placement().device.lock(), device);
  // dealloca then alloca queued back to back, with no host wait between:
  // the second reuses the block the first freed.
  auto freed = Fence::create();
  ASSERT_TRUE(device->queueDealloca(nullptr, freed, first, 0).ok());
  auto ready = Fence::create();
  auto second =
      device->queueAlloca(nullptr, ready, kHostVisible, kUsage, 900, 0);
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE(ready->wait().ok());
  EXPECT_EQ((*second)->data(), memory);
  AllocatorStatistics stats = device->allocator().statistics();
  EXPECT_EQ(stats.poolHits, 1u);
  EXPECT_EQ(stats.poolMisses, 1u);
  EXPECT_EQ(stats.allocations, 2u);
  EXPECT_EQ(stats.deallocations, 1u);
  EXPECT_EQ(stats.liveBytes, 900u);
}

TEST_P(QueueTest, PreferOriginRoutesToTheOriginDevice) {
  auto other = make("b");
  auto group = *DeviceGroup::create({device, other});
  auto buffer = allocate(*device, 64);
  ASSERT_TRUE(dealloca(*other, buffer, kQueueDeallocaPreferOrigin).ok());
  EXPECT_TRUE(buffer->isReleased());
  EXPECT_EQ(device->statistics().deallocas, 1u);
  EXPECT_EQ(other->statistics().deallocas, 0u);
  EXPECT_EQ(other->statistics().barriers, 0u);
  EXPECT_EQ(buffer->placement().queueAffinity, 1u);
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

TEST_P(QueueTest, NoOriginIsABarrierOnTheCallersDevice) {
  auto buffer = *device->allocator().allocate(kHostVisible, kUsage, 64);
  EXPECT_TRUE(buffer->placement().device.expired());
  ASSERT_TRUE(dealloca(*device, buffer, kQueueDeallocaPreferOrigin).ok());
  EXPECT_FALSE(buffer->isReleased());
  EXPECT_EQ(device->statistics().barriers, 1u);
  EXPECT_EQ(device->statistics().deallocas, 0u);
}

TEST_P(QueueTest, IndeterminateIsABarrierAndMemoryLivesToTheLastReference) {
  auto buffer = allocate(*device, 64, kQueueAllocaIndeterminateLifetime);
  EXPECT_TRUE(buffer->placement().flags &
              kBufferPlacementIndeterminateLifetime);
  ASSERT_TRUE(dealloca(*device, buffer, kQueueDeallocaPreferOrigin).ok());
  EXPECT_FALSE(buffer->isReleased());
  std::memset(buffer->data(), 1, 64); // still valid (ASan checks)
  EXPECT_EQ(device->statistics().barriers, 1u);
  EXPECT_EQ(device->allocator().statistics().liveBytes, 64u);
  buffer.reset();
  EXPECT_EQ(device->allocator().statistics().liveBytes, 0u);
}

// Memory a queue alloca took that no dealloca gave back goes with the last
// reference, and the allocator counts it as a missed free; a released
// buffer, an indeterminate one and a synchronous allocation do not count.
TEST_P(QueueTest, OnlyQueueAllocasNoDeallocaFreedCountAsReclaimedLate) {
  auto freed = allocate(*device, 64);
  ASSERT_TRUE(dealloca(*device, freed).ok());
  freed.reset();
  // Each dropped at the end of its statement.
  allocate(*device, 64, kQueueAllocaIndeterminateLifetime);
  ASSERT_TRUE(device->allocator().allocate(kHostVisible, kUsage, 64).ok());
  EXPECT_EQ(device->allocator().statistics().reclaimedAtLastReference, 0u);
  auto missed = allocate(*device, 64);
  auto view = *Buffer::subspan(missed, 16, 16);
  missed.reset();
  EXPECT_EQ(device->allocator().statistics().reclaimedAtLastReference, 0u);
  view.reset(); // the root goes with its last subspan
  // (On a queue thread, the alloca's finished operation may hold a
  // reference a moment longer than its fence.)
  AllocatorStatistics stats = device->allocator().statistics();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stats.deallocations < 4 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stats = device->allocator().statistics();
  }
  EXPECT_EQ(stats.reclaimedAtLastReference, 1u);
  EXPECT_EQ(stats.deallocations, 4u);
  EXPECT_EQ(stats.liveBytes, 0u);
}

TEST_P(QueueTest, DeallocaOfASynchronousAllocationIsABarrier) {
  auto buffer = *device->allocator().allocate(kHostVisible, kUsage, 32);
  ASSERT_TRUE(dealloca(*device, buffer).ok());
  EXPECT_FALSE(buffer->isReleased());
  EXPECT_EQ(device->statistics().barriers, 1u);
}

TEST_P(QueueTest, DoubleDeallocaIsAnError) {
  auto buffer = allocate(*device, 32);
  ASSERT_TRUE(dealloca(*device, buffer).ok());
  Status again = dealloca(*device, buffer);
  EXPECT_NE(again.message().find("second dealloca"), std::string::npos)
      << again.message();
  EXPECT_NE(again.message().find(buffer->describe()), std::string::npos);
  // Also for buffers whose first dealloca freed nothing.
  auto sync = *device->allocator().allocate(kHostVisible, kUsage, 32);
  ASSERT_TRUE(dealloca(*device, sync).ok());
  EXPECT_TRUE(failedWith(dealloca(*device, sync),
                         StatusCode::kFailedPrecondition, "second dealloca"));
}

TEST_P(QueueTest, BarrierOrdersAndFailedWaitPropagates) {
  auto wait = Fence::create();
  auto signal = Fence::create();
  if (GetParam().asynchronous) {
    // Queued behind a fence nobody resolved yet: not done until it is.
    wait->addPendingSignal();
    ASSERT_TRUE(device->queueBarrier(wait, signal).ok());
    EXPECT_FALSE(signal->isResolved());
    wait->fail(dataLoss("upstream"));
  } else {
    wait->fail(dataLoss("upstream"));
    EXPECT_EQ(device->queueBarrier(wait, signal).message(), "upstream");
  }
  EXPECT_EQ(signal->wait().message(), "upstream");
  auto ok = Fence::create();
  EXPECT_TRUE(device->queueBarrier(nullptr, ok).ok());
  EXPECT_TRUE(ok->wait().ok());
  EXPECT_EQ(device->statistics().barriers, 1u);
}

TEST_P(QueueTest, FillPatternsAndCounts) {
  auto buffer = allocate(*device, 4 << 20);
  for (uint32_t length : {1u, 2u, 4u, 8u}) {
    auto signal = Fence::create();
    uint64_t pattern = 0x0807060504030201ull;
    ASSERT_TRUE(device
                    ->queueFill(nullptr, signal, buffer, 8, (4 << 20) - 16,
                                pattern, length)
                    .ok());
    ASSERT_TRUE(signal->wait().ok());
    for (uint64_t i : {uint64_t(8), uint64_t(9), uint64_t(4 << 19) + 3,
                       uint64_t(4 << 20) - 9}) {
      uint64_t phase = (i - 8) % length;
      EXPECT_EQ(buffer->data()[i], uint8_t(pattern >> (8 * phase)))
          << "length " << length << " at " << i;
    }
  }
  EXPECT_EQ(device->statistics().fills, 4u);
  // A tail shorter than 8 bytes keeps the pattern's phase.
  auto tail = Fence::create();
  ASSERT_TRUE(
      device->queueFill(nullptr, tail, buffer, 3, 12, 0xddccbbaa, 4).ok());
  ASSERT_TRUE(tail->wait().ok());
  const uint8_t expected[] = {0xaa, 0xbb, 0xcc, 0xdd};
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(buffer->data()[3 + i], expected[i % 4]) << i;
  EXPECT_EQ(buffer->data()[15], 0x08); // untouched: the 8-byte fill left 8
  EXPECT_EQ(device->statistics().fills, 5u);
  auto bad = Fence::create();
  EXPECT_TRUE(failedWith(device->queueFill(nullptr, bad, buffer, 0, 6, 0, 4),
                         StatusCode::kInvalidArgument,
                         "length 6 is not a multiple of the pattern length 4"));
  EXPECT_TRUE(failedWith(bad->wait(), StatusCode::kInvalidArgument,
                         "length 6 is not a multiple of the pattern length 4"));
  EXPECT_TRUE(failedWith(
      device->queueFill(nullptr, Fence::create(), buffer, 4 << 20, 8, 0, 8),
      StatusCode::kOutOfRange,
      "range [4194304, +8) is outside its 4194304 bytes"));
  EXPECT_EQ(device->statistics().fills, 5u);
}

TEST_P(QueueTest, CopyWithinAndAcrossDevices) {
  auto other = make("b");
  auto group = *DeviceGroup::create({device, other});
  auto source = allocate(*device, 3 << 20);
  for (size_t i = 0; i < source->byteLength(); ++i)
    source->data()[i] = uint8_t(i * 7);
  auto target = allocate(*other, 3 << 20);
  auto signal = Fence::create();
  ASSERT_TRUE(device
                  ->queueCopy(nullptr, signal, source, 0, target, 0,
                              source->byteLength())
                  .ok());
  ASSERT_TRUE(signal->wait().ok());
  EXPECT_EQ(std::memcmp(source->data(), target->data(), source->byteLength()),
            0);
  EXPECT_EQ(device->statistics().copies, 1u);
  EXPECT_EQ(device->statistics().bytesCopied, uint64_t(3 << 20));
  // Overlapping ranges of one buffer are rejected.
  EXPECT_FALSE(
      device->queueCopy(nullptr, Fence::create(), source, 0, source, 8, 16)
          .ok());
}

TEST_P(QueueTest, CopyToADeviceOutsideTheGroupFails) {
  auto stranger = make("c");
  auto source = allocate(*device, 64);
  auto target = allocate(*stranger, 64);
  Status status =
      device->queueCopy(nullptr, Fence::create(), source, 0, target, 0, 64);
  EXPECT_NE(status.message().find("in no device group"), std::string::npos)
      << status.message();
}

TEST_P(QueueTest, HostCallsRunInOrderAndFailTheirFence) {
  std::vector<int> order;
  auto first = Fence::create();
  auto second = Fence::create();
  ASSERT_TRUE(device
                  ->queueHostCall(nullptr, first,
                                  [&] {
                                    order.push_back(1);
                                    return okStatus();
                                  })
                  .ok());
  (void)device->queueHostCall(first, second, [&] {
    order.push_back(2);
    return internalError("host call failed");
  });
  EXPECT_EQ(second->wait().message(), "host call failed");
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(device->statistics().hostCalls, 2u);
}

TEST_P(QueueTest, DispatchOnPooledBuffers) {
  auto a = allocate(*device, 4 * 300000);
  auto out = allocate(*device, 4 * 300000);
  auto *values = reinterpret_cast<int32_t *>(a->data());
  for (int i = 0; i < 300000; ++i)
    values[i] = i;
  std::vector<std::shared_ptr<Buffer>> bindings = {a, a, out};
  auto signal = Fence::create();
  ASSERT_TRUE(device
                  ->queueDispatch(nullptr, signal, BuiltinKernel::kAdd,
                                  ElementType::kI32, 300000, bindings)
                  .ok());
  ASSERT_TRUE(signal->wait().ok());
  auto *result = reinterpret_cast<int32_t *>(out->data());
  EXPECT_EQ(result[0], 0);
  EXPECT_EQ(result[299999], 599998);
}

INSTANTIATE_TEST_SUITE_P(
    Local, QueueTest,
    ::testing::Values(LocalDeviceOptions{},
                      LocalDeviceOptions{.asynchronous = true,
                                         .workerCount = 2},
                      LocalDeviceOptions{.asynchronous = true,
                                         .workerCount = 2,
                                         .inlineSmallOperations = false}),
    [](const auto &info) {
      if (!info.param.asynchronous)
        return "Sync";
      return info.param.inlineSmallOperations ? "Task" : "TaskQueued";
    });

// local-task specifics: calls return before the work runs.
TEST(LocalTaskTest, AllocaReturnsPendingBufferAndRunsInOrder) {
  auto device = LocalDevice::create("t", {.asynchronous = true});
  auto gate = Fence::create();
  gate->addPendingSignal();
  auto ready = Fence::create();
  auto buffer = device->queueAlloca(gate, ready, 0, kUsage, 64, 0);
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ((*buffer)->data(), nullptr); // pending
  EXPECT_FALSE((*buffer)->isReleased());
  Status early = (*buffer)->map(MappingMode::kScoped).status();
  EXPECT_NE(early.message().find("has not executed"), std::string::npos)
      << early.message();
  gate->signal();
  ASSERT_TRUE(ready->wait().ok());
  EXPECT_NE((*buffer)->data(), nullptr);
}

// An error in the middle of a program leaves work queued when the last
// reference to the device goes: here a dispatch the queue thread holds
// behind a fence another thread signals only later, and one behind a fence
// that failed. Destroying the device drains the queue first, so the held
// dispatch still runs on the device's executor, and the other fails with its
// wait's error. (ThreadSanitizer caught the destructor dropping the executor
// while the queue thread read it for the dispatch.)
TEST(LocalTaskTest, DestroyingTheDeviceDrainsQueuedWork) {
  auto device =
      LocalDevice::create("t", {.asynchronous = true, .workerCount = 2});
  constexpr uint64_t kCount = 1024;
  auto input = *device->allocator().allocate(0, kUsage, kCount * 4);
  auto *values = reinterpret_cast<int32_t *>(input->data());
  for (uint64_t i = 0; i < kCount; ++i)
    values[i] = int32_t(i);
  auto output = *device->allocator().allocate(0, kUsage, kCount * 4);
  std::vector<std::shared_ptr<Buffer>> bindings = {input, input, output};

  // The queue thread runs `first`, then takes the dispatch and waits on
  // the gate with it. (No ASSERTs until the device is gone: a test that
  // returned early would wait forever for the gate in its destructor.)
  auto first = Fence::create();
  EXPECT_TRUE(
      device->queueHostCall(nullptr, first, [] { return okStatus(); }).ok());
  auto gate = Fence::create();
  gate->addPendingSignal();
  auto held = Fence::create();
  EXPECT_TRUE(device
                  ->queueDispatch(gate, held, BuiltinKernel::kAdd,
                                  ElementType::kI32, kCount, bindings)
                  .ok());
  auto failed = Fence::create();
  failed->fail(internalError("mid-program error"));
  auto skipped = Fence::create();
  EXPECT_TRUE(device
                  ->queueDispatch(failed, skipped, BuiltinKernel::kAdd,
                                  ElementType::kI32, kCount, bindings)
                  .ok());
  // Opens the gate while the device is being destroyed.
  std::thread opener([first, gate] {
    (void)first->wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    gate->signal();
  });
  EXPECT_TRUE(first->wait().ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  device.reset();
  opener.join();

  std::optional<Status> heldStatus = held->query();
  ASSERT_TRUE(heldStatus.has_value()) << "queued work outlived its device";
  EXPECT_TRUE(heldStatus->ok()) << heldStatus->toString();
  auto *result = reinterpret_cast<int32_t *>(output->data());
  EXPECT_EQ(result[kCount - 1], int32_t(2 * (kCount - 1)));
  std::optional<Status> skippedStatus = skipped->query();
  ASSERT_TRUE(skippedStatus.has_value());
  EXPECT_TRUE(
      failedWith(*skippedStatus, StatusCode::kInternal, "mid-program error"));
}

// A small operation submitted while the queue is idle and its wait is met
// runs on the submitting thread (done when the call returns); one behind a
// pending wait is queued, and so is every operation submitted after it
// until the queue drains, however ready its own wait: order is kept.
TEST(LocalTaskTest, SmallOperationsRunInlineOnlyWhenTheQueueIsIdle) {
  auto device =
      LocalDevice::create("t", {.asynchronous = true, .workerCount = 2});
  constexpr uint64_t kCount = 256;
  auto make = [&](int32_t scale) {
    auto buffer = *device->allocator().allocate(0, kUsage, kCount * 4);
    auto *values = reinterpret_cast<int32_t *>(buffer->data());
    for (uint64_t i = 0; i < kCount; ++i)
      values[i] = scale * int32_t(i);
    return buffer;
  };
  auto at = [](const std::shared_ptr<Buffer> &buffer, uint64_t i) {
    return reinterpret_cast<const int32_t *>(buffer->data())[i];
  };
  auto a = make(1), b = make(10), c = make(100);
  auto sum = make(0), partial = make(0), total = make(0);
  auto add = [&](std::shared_ptr<Fence> wait, std::shared_ptr<Fence> signal,
                 std::shared_ptr<Buffer> lhs, std::shared_ptr<Buffer> rhs,
                 std::shared_ptr<Buffer> out) {
    std::vector<std::shared_ptr<Buffer>> bindings = {lhs, rhs, out};
    return device->queueDispatch(wait, signal, BuiltinKernel::kAdd,
                                 ElementType::kI32, kCount, bindings);
  };

  auto inlined = Fence::create();
  ASSERT_TRUE(add(nullptr, inlined, a, b, sum).ok());
  EXPECT_TRUE(inlined->isResolved()) << "not run on the submitting thread";
  EXPECT_EQ(device->operationsRunInline(), 1u);
  EXPECT_EQ(device->statistics().dispatches, 1u);
  EXPECT_EQ(at(sum, kCount - 1), 11 * int32_t(kCount - 1));

  auto gate = Fence::create();
  gate->addPendingSignal();
  auto first = Fence::create();
  ASSERT_TRUE(add(gate, first, a, b, partial).ok());
  auto second = Fence::create();
  ASSERT_TRUE(add(nullptr, second, partial, c, total).ok());
  EXPECT_FALSE(second->isResolved()) << "ran before the dispatch ahead of it";
  EXPECT_EQ(device->operationsRunInline(), 1u);
  gate->signal();
  ASSERT_TRUE(second->wait().ok());
  EXPECT_EQ(at(total, kCount - 1), 111 * int32_t(kCount - 1));
  EXPECT_EQ(device->statistics().dispatches, 3u);

  // Host calls never run inline (they may block on anything), nor do
  // operations over 1 MiB.
  std::thread::id ranOn;
  auto called = Fence::create();
  ASSERT_TRUE(device
                  ->queueHostCall(nullptr, called,
                                  [&] {
                                    ranOn = std::this_thread::get_id();
                                    return okStatus();
                                  })
                  .ok());
  ASSERT_TRUE(called->wait().ok());
  EXPECT_NE(ranOn, std::this_thread::get_id());
  auto big = *device->allocator().allocate(0, kUsage, 2 << 20);
  auto filled = Fence::create();
  ASSERT_TRUE(device->queueFill(nullptr, filled, big, 0, 2 << 20, 7, 1).ok());
  ASSERT_TRUE(filled->wait().ok());
  EXPECT_EQ(device->operationsRunInline(), 1u);
  EXPECT_EQ(big->data()[(2 << 20) - 1], 7);
}

// A small dispatch behind a wait that already failed runs (that is, fails)
// on the submitting thread, exactly as a queued one fails on the queue
// thread: the call returns OK, the signal carries the wait's failure, the
// kernel does not run, and the device goes on.
TEST(LocalTaskTest, AFailedWaitFailsAnInlineDispatchAsAQueuedOne) {
  for (bool inlineOperations : {true, false}) {
    SCOPED_TRACE(inlineOperations);
    auto device =
        LocalDevice::create("t", {.asynchronous = true,
                                  .workerCount = 2,
                                  .inlineSmallOperations = inlineOperations});
    constexpr uint64_t kCount = 256;
    std::vector<std::shared_ptr<Buffer>> bindings;
    for (int32_t fill : {1, 2, -1}) {
      bindings.push_back(*device->allocator().allocate(0, kUsage, kCount * 4));
      auto *values = reinterpret_cast<int32_t *>(bindings.back()->data());
      std::fill(values, values + kCount, fill);
    }
    auto *out = reinterpret_cast<const int32_t *>(bindings[2]->data());
    auto failed = Fence::create();
    failed->fail(dataLoss("upstream"));
    auto signal = Fence::create();
    EXPECT_TRUE(device
                    ->queueDispatch(failed, signal, BuiltinKernel::kAdd,
                                    ElementType::kI32, kCount, bindings)
                    .ok());
    // (A queued one may be done by now too.)
    if (inlineOperations) {
      EXPECT_TRUE(signal->isResolved()) << "not run on the submitting thread";
    }
    EXPECT_TRUE(failedWith(signal->wait(), StatusCode::kDataLoss, "upstream"));
    EXPECT_EQ(out[0], -1) << "the kernel ran";
    EXPECT_EQ(device->statistics().dispatches, 0u);
    EXPECT_EQ(device->operationsRunInline(), inlineOperations ? 1u : 0u);

    auto next = Fence::create();
    ASSERT_TRUE(device
                    ->queueDispatch(nullptr, next, BuiltinKernel::kAdd,
                                    ElementType::kI32, kCount, bindings)
                    .ok());
    ASSERT_TRUE(next->wait().ok());
    EXPECT_EQ(out[kCount - 1], 3);
    EXPECT_EQ(device->operationsRunInline(), inlineOperations ? 2u : 0u);
  }
}

} // namespace
} // namespace ferry::drivers::local
