#include "runtime/hal/fence.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace ferry::hal {
namespace {

TEST(FenceTest, SignalThenWait) {
  auto fence = Fence::create();
  EXPECT_FALSE(fence->isResolved());
  fence->signal();
  EXPECT_TRUE(fence->wait().ok());
  EXPECT_TRUE(Fence::createSignaled()->wait().ok());
}

TEST(FenceTest, FailedFenceReturnsItsStatusAndStaysFailed) {
  auto fence = Fence::create();
  fence->fail(dataLoss("disk on fire"));
  fence->signal(); // ignored: the first resolution wins
  Status status = fence->wait();
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "disk on fire");
  EXPECT_EQ(fence->query()->message(), "disk on fire");
}

TEST(FenceTest, WaitWithNothingPendingIsADeadlockNotAHang) {
  auto fence = Fence::create();
  Status status = fence->wait();
  EXPECT_EQ(status.code(), StatusCode::kDeadlock);
}

TEST(FenceTest, WaitBlocksUntilAnotherThreadSignals) {
  for (bool failIt : {false, true}) {
    auto fence = Fence::create();
    fence->addPendingSignal();
    std::thread producer([fence, failIt] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (failIt)
        fence->fail(internalError("producer failed"));
      else
        fence->signal();
    });
    Status status = fence->wait();
    producer.join();
    EXPECT_EQ(status.ok(), !failIt);
  }
}

TEST(FenceTest, ManyWaiters) {
  auto fence = Fence::create();
  fence->addPendingSignal();
  std::vector<std::thread> waiters;
  std::atomic<int> okCount{0};
  for (int i = 0; i < 4; ++i)
    waiters.emplace_back([&] {
      if (fence->wait().ok())
        ++okCount;
    });
  fence->signal();
  for (std::thread &t : waiters)
    t.join();
  EXPECT_EQ(okCount.load(), 4);
}

TEST(FenceTest, JoinSignalsWhenAllDoAndFailsIfAnyFails) {
  EXPECT_TRUE(Fence::join({})->wait().ok());

  std::vector<std::shared_ptr<Fence>> fences = {Fence::create(),
                                                Fence::create()};
  for (auto &fence : fences)
    fence->addPendingSignal();
  auto joined = Fence::join(fences);
  fences[0]->signal();
  EXPECT_FALSE(joined->isResolved());
  fences[1]->signal();
  EXPECT_TRUE(joined->wait().ok());

  std::vector<std::shared_ptr<Fence>> mixed = {Fence::createSignaled(),
                                               Fence::create()};
  mixed[1]->fail(dataLoss("second failed"));
  EXPECT_EQ(Fence::join(mixed)->wait().message(), "second failed");

  // Joining a fence nothing will signal cannot complete either.
  std::vector<std::shared_ptr<Fence>> orphan = {Fence::create()};
  EXPECT_EQ(Fence::join(orphan)->wait().code(), StatusCode::kDeadlock);
}

TEST(FenceTest, JoinAcrossThreads) {
  std::vector<std::shared_ptr<Fence>> fences;
  for (int i = 0; i < 4; ++i) {
    fences.push_back(Fence::create());
    fences.back()->addPendingSignal();
  }
  auto joined = Fence::join(fences);
  std::vector<std::thread> producers;
  for (auto &fence : fences)
    producers.emplace_back([fence] { fence->signal(); });
  EXPECT_TRUE(joined->wait().ok());
  for (std::thread &t : producers)
    t.join();
}

} // namespace
} // namespace ferry::hal
