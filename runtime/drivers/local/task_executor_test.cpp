#include "runtime/drivers/local/task_executor.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <future>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

namespace ferry::drivers::local {
namespace {

// Items queued while the queue thread is busy are taken without waking it:
// one wake-up for the first hand-off, none for the 99 behind it.
TEST(TaskExecutorTest, OneWakeUpPerHandOffNotPerItem) {
  TaskExecutor executor(1);
  // Let the queue thread finish polling and park.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  executor.enqueue([&] {
    released.wait();
    ++ran;
  });
  for (int i = 0; i < 99; ++i)
    executor.enqueue([&] { ++ran; });
  release.set_value();
  executor.shutdown();
  EXPECT_EQ(ran.load(), 100);
  EXPECT_LE(executor.queueWakeUps(), 1u);
}

double processCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

// After its last item the queue thread polls briefly, then parks: an idle
// executor uses (almost) no CPU.
TEST(TaskExecutorTest, AnIdleExecutorParks) {
  TaskExecutor executor(2);
  std::promise<void> done;
  executor.enqueue([&] { done.set_value(); });
  done.get_future().wait();
  double start = processCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  double used = processCpuSeconds() - start;
  // A thread that never parked would use the whole 300 ms.
  EXPECT_LT(used, 0.03) << "CPU seconds used while idle";
}

} // namespace
} // namespace ferry::drivers::local
