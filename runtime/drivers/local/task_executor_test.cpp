#include "runtime/drivers/local/task_executor.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
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

// runIfIdle runs an item on the calling thread only when nothing is queued
// or running; items queued while it runs wait for it, in order.
TEST(TaskExecutorTest, RunIfIdleKeepsSubmissionOrder) {
  TaskExecutor executor(2);
  std::thread::id ranOn;
  EXPECT_TRUE(executor.runIfIdle([&] { ranOn = std::this_thread::get_id(); }));
  EXPECT_EQ(ranOn, std::this_thread::get_id());

  // Busy queue thread: not run, not even when the queue is empty.
  std::promise<void> releaseQueued;
  std::shared_future<void> queuedReleased = releaseQueued.get_future().share();
  std::promise<void> queuedStarted;
  executor.enqueue([&] {
    queuedStarted.set_value();
    queuedReleased.wait();
  });
  queuedStarted.get_future().wait();
  bool ran = false;
  EXPECT_FALSE(executor.runIfIdle([&] { ran = true; }));
  EXPECT_FALSE(ran);
  releaseQueued.set_value();

  // An inline item holds back what is queued meanwhile and other inline
  // items; the queue thread runs the queued ones once it returns.
  std::vector<int> order;
  std::mutex orderMutex;
  auto record = [&](int step) {
    std::lock_guard<std::mutex> lock(orderMutex);
    order.push_back(step);
  };
  std::promise<void> inlineStarted, releaseInline;
  std::thread other([&] {
    // Waits for the queue to drain, then runs inline.
    while (!executor.runIfIdle([&] {
      inlineStarted.set_value();
      releaseInline.get_future().wait();
      record(1);
    }))
      std::this_thread::yield();
  });
  inlineStarted.get_future().wait();
  std::promise<void> queuedRan;
  executor.enqueue([&] {
    record(2);
    queuedRan.set_value();
  });
  EXPECT_FALSE(executor.runIfIdle([&] { record(3); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  releaseInline.set_value();
  queuedRan.get_future().wait();
  other.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(executor.itemsRunInline(), 2u);
}

// parallelFor from an item run inline splits the range with the helpers
// like one on the queue thread: every unit exactly once.
TEST(TaskExecutorTest, ParallelForInsideAnInlineItem) {
  TaskExecutor executor(2);
  std::vector<std::atomic<int>> seen(64);
  for (int round = 0; round < 100; ++round)
    EXPECT_TRUE(executor.runIfIdle([&] {
      executor.parallelFor(seen.size(), 1, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i)
          seen[i].fetch_add(1);
      });
    }));
  for (const std::atomic<int> &count : seen)
    EXPECT_EQ(count.load(), 100);
}

// Waits (up to 10 s) until every helper of `executor` is parked.
bool helpersParkWithin10s(TaskExecutor &executor) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (executor.helpersParked() != executor.workerCount() - 1) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A small operation's parallelFor finding the helpers parked runs its first
// grain alone; a rest of a few nanoseconds stays on the calling thread, a
// rest of milliseconds wakes the helpers. Split::kAtOnce always wakes them.
// Every unit runs exactly once either way.
TEST(TaskExecutorTest, SmallSplitsWakeParkedHelpersOnlyWhenWorthIt) {
  TaskExecutor executor(2);
  ASSERT_TRUE(helpersParkWithin10s(executor));
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::atomic<int>> seen(4);
  std::atomic<int> offCaller{0};
  auto unit = [&](std::chrono::microseconds sleep) {
    return [&, sleep](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        std::this_thread::sleep_for(sleep);
        seen[i].fetch_add(1);
        if (std::this_thread::get_id() != caller)
          ++offCaller;
      }
    };
  };
  // parallelFor runs inside an item: here one run inline.
  auto split = [&](auto fn, TaskExecutor::Split how) {
    EXPECT_TRUE(executor.runIfIdle(
        [&] { executor.parallelFor(seen.size(), 1, fn, how); }));
  };
  auto runOnceEach = [&] {
    bool once = true;
    for (std::atomic<int> &count : seen)
      once &= count.exchange(0) == 1;
    return once;
  };

  // Tiny units. (A preemption while timing the first one could make it
  // look slow: a few attempts, each from parked helpers.)
  uint64_t wakeUps = 0;
  for (int attempt = 0; attempt < 5 && executor.splitsDeclined() == 0;
       ++attempt) {
    ASSERT_TRUE(helpersParkWithin10s(executor));
    wakeUps = executor.helperWakeUps();
    offCaller = 0;
    split(unit(std::chrono::microseconds(0)),
          TaskExecutor::Split::kIfWorthAWakeUp);
    EXPECT_TRUE(runOnceEach());
  }
  EXPECT_EQ(executor.splitsDeclined(), 1u);
  EXPECT_EQ(executor.helperWakeUps(), wakeUps) << "woke a helper";
  EXPECT_EQ(offCaller.load(), 0);

  // 2 ms units: the rest (6 ms) is worth a wake-up.
  ASSERT_TRUE(helpersParkWithin10s(executor));
  split(unit(std::chrono::milliseconds(2)),
        TaskExecutor::Split::kIfWorthAWakeUp);
  EXPECT_TRUE(runOnceEach());
  EXPECT_EQ(executor.splitsDeclined(), 1u);
  EXPECT_EQ(executor.helperWakeUps(), wakeUps + 1);

  ASSERT_TRUE(helpersParkWithin10s(executor));
  split(unit(std::chrono::microseconds(0)), TaskExecutor::Split::kAtOnce);
  EXPECT_TRUE(runOnceEach());
  EXPECT_EQ(executor.splitsDeclined(), 1u);
  EXPECT_EQ(executor.helperWakeUps(), wakeUps + 2);
}

} // namespace
} // namespace ferry::drivers::local
