// TaskExecutor: the local-task driver's engine. One queue thread runs queue
// operations strictly in submission order (so pools stay stream-ordered and
// the queue contract in runtime/hal/device.h holds), and a set of helper
// threads joins it to split the bulk of one operation (a copy, a fill, a
// dispatch) into chunks.
//
// A submitting thread may also run an item itself (runIfIdle) when nothing
// is queued or running: then the item is still in submission order, and a
// small operation does not pay for two thread hand-offs (to the queue
// thread and back to a host waiting on its fence), which cost more than a
// small dispatch's work.
//
// An idle queue thread polls for new work for kSpinBeforeParking
// (runtime/base/spin_wait.h) before it parks, so a host that issues the next
// operation right after waiting on the last one finds it awake; helpers
// likewise poll for the next parallelFor before they park, and the thread
// in parallelFor takes chunks itself and polls for the helpers' last ones.
// A parked thread costs no CPU.
//
// Waking a parked helper is worth it only for enough work: the thread in
// parallelFor pays for the wake-up, and then often waits for the helper's
// last chunk, which starts late on a cold cache. A parallelFor of a small
// operation (Split::kIfWorthAWakeUp) finding every helper parked first runs
// one grain alone, and wakes them for the rest only if the rest, at that
// pace, would take kWakeWorth or longer.
//
// Ownership/threads: owned by its device. enqueue() and runIfIdle() may be
// called from any thread; parallelFor() only from inside a running item (on
// the queue thread, or on the thread in runIfIdle). shutdown() (and the
// destructor, if it has not run) runs everything already queued, then joins
// every thread.
#ifndef FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_
#define FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ferry::drivers::local {

class TaskExecutor {
public:
  // `workerCount` threads share the work of one operation (the queue thread
  // plus workerCount - 1 helpers); at least 1.
  explicit TaskExecutor(uint32_t workerCount);
  ~TaskExecutor();
  TaskExecutor(const TaskExecutor &) = delete;
  TaskExecutor &operator=(const TaskExecutor &) = delete;

  uint32_t workerCount() const { return workerCount_; }
  // Runs everything queued (including what queued work enqueues), then
  // stops and joins the queue and helper threads; enqueue() must not be
  // called after it. Its owner calls it before anything the queued work
  // uses goes away. Idempotent; not to be called from the queue thread.
  void shutdown();
  // Queues `item` behind everything queued before it. Wakes the queue
  // thread only if it is parked.
  void enqueue(std::function<void()> item);
  // How many times enqueue() has woken the parked queue thread.
  uint64_t queueWakeUps() const {
    return queueWakeUps_.load(std::memory_order_relaxed);
  }
  // If no item is queued or running (and shutdown() has not begun), runs
  // `item` on the calling thread now, holding back the queue thread (and
  // every other runIfIdle) until it returns, and returns true; otherwise
  // returns false at once without running it (the caller enqueues it).
  template <typename Item> bool runIfIdle(Item &&item) {
    if (!claimIdle())
      return false;
    item();
    releaseClaim();
    return true;
  }
  // How many items runIfIdle() has run.
  uint64_t itemsRunInline() const {
    return itemsRunInline_.load(std::memory_order_relaxed);
  }
  // How parallelFor brings in parked helpers (see above).
  enum class Split {
    // Wakes them at once: the operation is large.
    kAtOnce,
    // The operation is small: if every helper is parked, the calling thread
    // runs the first grain alone and wakes them only if the rest looks
    // worth it.
    kIfWorthAWakeUp,
  };
  // Runs fn(begin, end) over [0, n) in chunks of at least `grain` units (a
  // few per worker, so the caller need not wait for a helper that is slow to
  // wake: it takes what no helper has), and returns when all are done.
  void parallelFor(uint64_t n, uint64_t grain,
                   const std::function<void(uint64_t, uint64_t)> &fn,
                   Split split = Split::kAtOnce);
  // How many parallelFor calls of Split::kIfWorthAWakeUp ran alone on the
  // calling thread because the work was too small to wake a helper for.
  uint64_t splitsDeclined() const {
    return splitsDeclined_.load(std::memory_order_relaxed);
  }
  // How many parallelFor calls woke parked helpers.
  uint64_t helperWakeUps() const {
    return helperWakeUps_.load(std::memory_order_relaxed);
  }
  // How many helpers are parked now (for tests).
  uint32_t helpersParked();

private:
  struct Job;
  bool claimIdle();
  void releaseClaim();
  void queueLoop();
  void helperLoop();
  static void runChunks(Job &job);

  uint32_t workerCount_;
  std::mutex mutex_;
  std::condition_variable queueChanged_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  // The queue thread waits in queueChanged_ (not polling) and nobody has
  // woken it yet: only then does enqueue() notify (and clear it), so a
  // hand-off costs at most one wake-up.
  bool queueThreadParked_ = false;
  // An item is running (on the queue thread or in runIfIdle): the other
  // may not start one.
  bool running_ = false;
  std::atomic<uint64_t> itemsRunInline_{0};
  // queue_.size() as last set under mutex_, for the queue thread to poll
  // before it parks.
  std::atomic<size_t> queued_{0};
  std::atomic<uint64_t> queueWakeUps_{0};

  std::mutex jobMutex_;
  std::condition_variable jobPosted_;
  std::shared_ptr<Job> job_;
  // Bumped (under jobMutex_) for every job; helpers poll it before parking.
  std::atomic<uint64_t> jobGeneration_{0};
  uint32_t helpersParked_ = 0; // in jobPosted_.wait, under jobMutex_
  bool helpersStopping_ = false;
  std::atomic<uint64_t> splitsDeclined_{0};
  std::atomic<uint64_t> helperWakeUps_{0};

  std::thread queueThread_;
  std::vector<std::thread> helpers_;
};

} // namespace ferry::drivers::local

#endif // FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_
