#include "runtime/hal/fence_deadlines.h"

#include <chrono>
#include <gtest/gtest.h>
#include <thread>

#include "runtime/base/testing/status_assertions.h"

namespace ferry::hal {
namespace {

using std::chrono::milliseconds;
using Clock = FenceDeadlines::Clock;

// A fence some producer promised to resolve, so wait() blocks.
std::shared_ptr<Fence> promisedFence() {
  auto fence = Fence::create();
  fence->addPendingSignal();
  return fence;
}

TEST(FenceDeadlinesTest, FailsAFenceStillPendingAtItsDeadline) {
  FenceDeadlines deadlines;
  auto fence = promisedFence();
  auto start = Clock::now();
  deadlines.watch(fence, milliseconds(30), "'f' did not signal in time");
  // Waiters (here, a blocking wait) receive the failure.
  EXPECT_TRUE(failedWith(fence->wait(), StatusCode::kDeadlineExceeded,
                         "'f' did not signal in time"));
  EXPECT_GE(Clock::now() - start, milliseconds(30));
}

TEST(FenceDeadlinesTest, LeavesFencesResolvedInTime) {
  FenceDeadlines deadlines;
  auto signaled = promisedFence();
  auto failed = promisedFence();
  deadlines.watch(signaled, milliseconds(20), "late");
  deadlines.watch(failed, milliseconds(20), "late");
  signaled->signal();
  failed->fail(dataLoss("the producer's own failure"));
  std::this_thread::sleep_for(milliseconds(60));
  EXPECT_TRUE(signaled->wait().ok());
  EXPECT_TRUE(failedWith(failed->wait(), StatusCode::kDataLoss,
                         "the producer's own failure"));
  deadlines.watch(nullptr, milliseconds(1), "ignored");
  deadlines.watch(Fence::createSignaled(), milliseconds(1), "ignored");
}

TEST(FenceDeadlinesTest, EarliestDeadlineFirstWhateverTheOrder) {
  FenceDeadlines deadlines;
  auto late = promisedFence(), early = promisedFence();
  deadlines.watch(late, std::chrono::seconds(30), "late");
  deadlines.watch(early, milliseconds(10), "early");
  EXPECT_TRUE(
      failedWith(early->wait(), StatusCode::kDeadlineExceeded, "early"));
  EXPECT_FALSE(late->isResolved());
  late->signal(); // so the destructor need not wait 30 s
}

TEST(FenceDeadlinesTest, DestructorFailsWhatIsStillPendingAtItsDeadline) {
  auto fence = promisedFence();
  auto start = Clock::now();
  {
    FenceDeadlines deadlines;
    deadlines.watch(fence, milliseconds(30), "abandoned");
  }
  EXPECT_GE(Clock::now() - start, milliseconds(30));
  EXPECT_TRUE(
      failedWith(*fence->query(), StatusCode::kDeadlineExceeded, "abandoned"));
}

TEST(FenceDeadlinesTest, DestructorDoesNotWaitForResolvedOrDestroyedFences) {
  auto start = Clock::now();
  auto resolved = promisedFence();
  {
    FenceDeadlines deadlines;
    deadlines.watch(resolved, std::chrono::seconds(30), "never");
    deadlines.watch(promisedFence(), std::chrono::seconds(30), "gone");
    resolved->signal();
  }
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(resolved->wait().ok());
}

} // namespace
} // namespace ferry::hal
