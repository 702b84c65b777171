#include "runtime/base/testing/status_assertions.h"
#include "runtime/hal/semaphore.h"

#include <gtest/gtest.h>
#include <thread>

namespace ferry::hal {
namespace {

using namespace std::chrono_literals;

TEST(SemaphoreTest, SignalWaitAndTimeout) {
  auto semaphore = Semaphore::create(1);
  EXPECT_TRUE(semaphore->wait(1, 0ns).ok());
  Status timedOut = semaphore->wait(2, 1ms);
  EXPECT_EQ(timedOut.code(), StatusCode::kDeadlineExceeded);
  std::thread producer([&] { EXPECT_TRUE(semaphore->signal(5).ok()); });
  EXPECT_TRUE(semaphore->wait(5).ok());
  producer.join();
  EXPECT_EQ(*semaphore->query(), 5u);
  EXPECT_TRUE(failedWith(semaphore->signal(5), StatusCode::kInvalidArgument,
                         "semaphore signal to 5 does not advance its value 5"));
}

TEST(SemaphoreTest, FenceAtResolvesInOrder) {
  auto semaphore = Semaphore::create();
  auto at1 = semaphore->fenceAt(1);
  auto at3 = semaphore->fenceAt(3);
  EXPECT_TRUE(semaphore->fenceAt(0)->isResolved());
  ASSERT_TRUE(semaphore->signal(2).ok());
  EXPECT_TRUE(at1->isResolved());
  EXPECT_FALSE(at3->isResolved());
  ASSERT_TRUE(semaphore->signal(3).ok());
  EXPECT_TRUE(at3->wait().ok());
}

TEST(SemaphoreTest, FailurePropagatesToEveryWaiter) {
  auto semaphore = Semaphore::create();
  auto pending = semaphore->fenceAt(4);
  std::vector<std::thread> waiters;
  std::atomic<int> failed{0};
  for (int i = 0; i < 4; ++i)
    waiters.emplace_back([&] {
      if (semaphore->wait(10).message() == "device lost")
        failed.fetch_add(1);
    });
  semaphore->fail(dataLoss("device lost"));
  for (auto &waiter : waiters)
    waiter.join();
  EXPECT_EQ(failed.load(), 4);
  EXPECT_EQ(pending->wait().message(), "device lost");
  EXPECT_EQ(semaphore->fenceAt(9)->wait().message(), "device lost");
  EXPECT_EQ(semaphore->query().status().message(), "device lost");
  EXPECT_TRUE(
      failedWith(semaphore->signal(11), StatusCode::kFailedPrecondition,
                 "signal of a failed semaphore: DATA_LOSS: device lost"));
}

TEST(FenceTimeoutTest, WaitWithTimeout) {
  auto fence = Fence::create();
  EXPECT_EQ(fence->wait(1ms).code(), StatusCode::kDeadlineExceeded);
  std::thread signaller([&] { fence->signal(); });
  EXPECT_TRUE(fence->wait(10s).ok());
  signaller.join();
  auto failed = Fence::create();
  failed->fail(dataLoss("broken"));
  EXPECT_EQ(failed->wait(0ns).message(), "broken");
}

TEST(FenceTimeoutTest, JoinFailsWithTheFirstFailureForEveryWaiter) {
  auto a = Fence::create();
  auto b = Fence::create();
  a->addPendingSignal();
  b->addPendingSignal();
  std::shared_ptr<Fence> both[] = {a, b};
  auto joined = Fence::join(both);
  std::vector<std::thread> waiters;
  std::atomic<int> sawFailure{0};
  for (int i = 0; i < 3; ++i)
    waiters.emplace_back([&] {
      if (joined->wait().message() == "b broke")
        sawFailure.fetch_add(1);
    });
  b->fail(dataLoss("b broke"));
  a->signal();
  for (auto &waiter : waiters)
    waiter.join();
  EXPECT_EQ(sawFailure.load(), 3);
}

} // namespace
} // namespace ferry::hal
