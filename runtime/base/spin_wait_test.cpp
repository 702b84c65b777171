#include "runtime/base/spin_wait.h"

#include <atomic>
#include <gtest/gtest.h>
#include <thread>

namespace ferry {
namespace {

TEST(SpinWaitTest, ReturnsOnceReady) {
  int polls = 0;
  EXPECT_TRUE(
      spinUntil([&] { return ++polls >= 3; }, std::chrono::seconds(10)) ||
      !cpusToSpare());
  EXPECT_TRUE(spinUntil([] { return true; }, std::chrono::nanoseconds(0)));
}

TEST(SpinWaitTest, GivesUpAfterItsBudget) {
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(spinUntil([] { return false; }, std::chrono::milliseconds(2)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  // A zero budget checks once.
  int polls = 0;
  EXPECT_FALSE(spinUntil(
      [&] {
        ++polls;
        return false;
      },
      std::chrono::nanoseconds(0)));
  EXPECT_EQ(polls, 1);
}

TEST(SpinWaitTest, SeesAnotherThreadsStore) {
  std::atomic<bool> flag{false};
  std::thread setter([&] { flag.store(true, std::memory_order_release); });
  setter.join();
  EXPECT_TRUE(spinUntil([&] { return flag.load(std::memory_order_acquire); },
                        std::chrono::milliseconds(1)));
}

} // namespace
} // namespace ferry
