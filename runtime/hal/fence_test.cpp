#include "runtime/hal/fence.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

#include "runtime/base/testing/status_assertions.h"

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
  EXPECT_TRUE(failedWith(fence->wait(), StatusCode::kDeadlock,
                         "waiting on a fence that nothing will ever signal"));
}

// A waiter that had not blocked would return during the sleep, or return
// having seen the flag the main thread sets just before resolving unset.
// (A waiter thread that starts late returns at once, and passes.)
constexpr auto kLongEnoughToReturn = std::chrono::milliseconds(20);

TEST(FenceTest, WaitBlocksUntilAnotherThreadSignals) {
  for (bool failIt : {false, true}) {
    auto fence = Fence::create();
    fence->addPendingSignal();
    std::atomic<bool> resolving{false}, returned{false};
    bool sawResolving = false;
    Status status;
    std::thread waiter([&] {
      status = fence->wait();
      sawResolving = resolving.load();
      returned = true;
    });
    std::this_thread::sleep_for(kLongEnoughToReturn);
    EXPECT_FALSE(returned.load()) << "wait() returned before the fence "
                                  << "was resolved (failIt=" << failIt << ")";
    resolving = true;
    if (failIt)
      fence->fail(internalError("producer failed"));
    else
      fence->signal();
    waiter.join();
    EXPECT_TRUE(sawResolving) << "failIt=" << failIt;
    if (failIt)
      EXPECT_TRUE(failedWith(status, StatusCode::kInternal, "producer failed"));
    else
      EXPECT_TRUE(status.ok()) << status.toString();
  }
}

TEST(FenceTest, ManyWaiters) {
  auto fence = Fence::create();
  fence->addPendingSignal();
  std::vector<std::thread> waiters;
  std::atomic<bool> resolving{false};
  std::atomic<int> returned{0}, okAfterSignal{0};
  for (int i = 0; i < 4; ++i)
    waiters.emplace_back([&] {
      Status status = fence->wait();
      if (status.ok() && resolving.load())
        ++okAfterSignal;
      ++returned;
    });
  std::this_thread::sleep_for(kLongEnoughToReturn);
  EXPECT_EQ(returned.load(), 0);
  resolving = true;
  fence->signal();
  for (std::thread &t : waiters)
    t.join();
  EXPECT_EQ(okAfterSignal.load(), 4);
}

TEST(FenceTest, JoinSignalsWhenAllDoAndFailsIfAnyFails) {
  EXPECT_TRUE(Fence::join({})->wait().ok());

  // Pending until the last part is signaled, in whatever order.
  std::vector<std::shared_ptr<Fence>> fences = {
      Fence::create(), Fence::create(), Fence::create()};
  for (auto &fence : fences)
    fence->addPendingSignal();
  auto joined = Fence::join(fences);
  EXPECT_FALSE(joined->isResolved());
  EXPECT_TRUE(joined->willResolve());
  fences[0]->signal();
  EXPECT_FALSE(joined->isResolved());
  fences[2]->signal();
  EXPECT_FALSE(joined->isResolved());
  fences[1]->signal();
  ASSERT_TRUE(joined->isResolved());
  EXPECT_TRUE(joined->query()->ok()) << joined->query()->toString();

  // Failed as soon as a part fails, with that part's status; a later
  // failure does not replace it.
  std::vector<std::shared_ptr<Fence>> parts = {Fence::create(), Fence::create(),
                                               Fence::create()};
  for (auto &part : parts)
    part->addPendingSignal();
  auto failing = Fence::join(parts);
  parts[0]->signal();
  EXPECT_FALSE(failing->isResolved());
  parts[1]->fail(dataLoss("second failed"));
  ASSERT_TRUE(failing->isResolved());
  EXPECT_TRUE(
      failedWith(*failing->query(), StatusCode::kDataLoss, "second failed"));
  parts[2]->fail(internalError("third failed"));
  EXPECT_TRUE(
      failedWith(failing->wait(), StatusCode::kDataLoss, "second failed"));

  // Parts resolved before the join.
  std::vector<std::shared_ptr<Fence>> mixed = {Fence::createSignaled(),
                                               Fence::create()};
  mixed[1]->fail(dataLoss("second failed"));
  EXPECT_TRUE(failedWith(Fence::join(mixed)->wait(), StatusCode::kDataLoss,
                         "second failed"));

  // Joining a fence nothing will signal cannot complete either.
  std::vector<std::shared_ptr<Fence>> orphan = {Fence::create()};
  EXPECT_TRUE(failedWith(Fence::join(orphan)->wait(), StatusCode::kDeadlock,
                         "nothing will ever signal"));
}

// Parts signaled on other threads: the join waits for the last of them.
TEST(FenceTest, JoinAcrossThreads) {
  std::vector<std::shared_ptr<Fence>> fences;
  for (int i = 0; i < 4; ++i) {
    fences.push_back(Fence::create());
    fences.back()->addPendingSignal();
  }
  auto joined = Fence::join(fences);
  std::vector<std::thread> producers;
  for (size_t i = 0; i + 1 < fences.size(); ++i)
    producers.emplace_back([fence = fences[i]] { fence->signal(); });
  for (std::thread &t : producers)
    t.join();
  EXPECT_FALSE(joined->isResolved());
  std::atomic<bool> lastSignaled{false};
  std::thread last([&] {
    std::this_thread::sleep_for(kLongEnoughToReturn);
    lastSignaled = true;
    fences.back()->signal();
  });
  EXPECT_TRUE(joined->wait().ok());
  EXPECT_TRUE(lastSignaled.load()) << "the join resolved before its last part";
  last.join();
}

} // namespace
} // namespace ferry::hal
