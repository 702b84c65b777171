#include "runtime/drivers/local/task_executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <utility>

#include "runtime/base/spin_wait.h"

namespace ferry::drivers::local {

// parallelFor cuts its range into up to this many chunks per worker, so the
// calling thread can take the chunks of a helper that has not woken yet.
static constexpr uint64_t kChunksPerWorker = 4;

// Split::kIfWorthAWakeUp wakes parked helpers only for at least this much
// work left (estimated from the first grain): a wake-up is a system call,
// and the helper is scheduled some microseconds to tens of microseconds
// later in a virtual machine, on a cache that holds none of the data, so
// only work well past that gains from a second thread.
static constexpr std::chrono::nanoseconds kWakeWorth =
    std::chrono::microseconds(50);

struct TaskExecutor::Job {
  const std::function<void(uint64_t, uint64_t)> *fn;
  uint64_t first; // the range is [first, n)
  uint64_t n;
  uint64_t chunk;
  uint64_t chunks;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> remaining;
  std::mutex doneMutex;
  std::condition_variable done;
};

TaskExecutor::TaskExecutor(uint32_t workerCount)
    : workerCount_(std::max<uint32_t>(workerCount, 1)) {
  queueThread_ = std::thread([this] { queueLoop(); });
  for (uint32_t i = 1; i < workerCount_; ++i)
    helpers_.emplace_back([this] { helperLoop(); });
}

TaskExecutor::~TaskExecutor() { shutdown(); }

void TaskExecutor::shutdown() {
  if (!queueThread_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queueChanged_.notify_all();
  queueThread_.join();
  {
    std::lock_guard<std::mutex> lock(jobMutex_);
    helpersStopping_ = true;
  }
  jobPosted_.notify_all();
  for (std::thread &helper : helpers_)
    helper.join();
}

void TaskExecutor::enqueue(std::function<void()> item) {
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(item));
    queued_.store(queue_.size(), std::memory_order_release);
    // The first enqueue after the thread parked wakes it; later ones, made
    // before it has run again, need not.
    wake = std::exchange(queueThreadParked_, false);
  }
  if (wake) {
    queueWakeUps_.fetch_add(1, std::memory_order_relaxed);
    queueChanged_.notify_one();
  }
}

bool TaskExecutor::claimIdle() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_ || !queue_.empty() || stopping_)
    return false;
  running_ = true;
  itemsRunInline_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void TaskExecutor::releaseClaim() {
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = false;
    // Items queued meanwhile waited for this one (and a shutdown() begun
    // meanwhile waits to drain): the queue thread, if parked, needs waking.
    wake = (!queue_.empty() || stopping_) &&
           std::exchange(queueThreadParked_, false);
  }
  if (wake) {
    queueWakeUps_.fetch_add(1, std::memory_order_relaxed);
    queueChanged_.notify_one();
  }
}

void TaskExecutor::queueLoop() {
  bool ranItem = false;
  for (;;) {
    std::function<void()> item;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (std::exchange(ranItem, false))
        running_ = false;
      if (queue_.empty() && !stopping_) {
        lock.unlock();
        spinUntil([&] { return queued_.load(std::memory_order_acquire) != 0; });
        lock.lock();
      }
      // Parked again after every wake-up that finds nothing to run (an item
      // queued behind one running in runIfIdle), so the next enqueue() or
      // releaseClaim() wakes it.
      while (running_ || (!stopping_ && queue_.empty())) {
        queueThreadParked_ = true;
        queueChanged_.wait(lock);
      }
      queueThreadParked_ = false; // also when woken by shutdown()
      if (queue_.empty())
        return; // stopping and drained
      item = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
      running_ = true;
      ranItem = true;
    }
    item();
  }
}

void TaskExecutor::runChunks(Job &job) {
  for (;;) {
    uint64_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.chunks)
      return;
    uint64_t begin = job.first + i * job.chunk;
    (*job.fn)(begin, std::min(job.n, begin + job.chunk));
    if (job.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(job.doneMutex);
      job.done.notify_all();
    }
  }
}

void TaskExecutor::helperLoop() {
  uint64_t seen = 0;
  for (;;) {
    // Dispatches come in bursts: the next job usually follows within
    // microseconds, and a helper still polling joins it at once.
    spinUntil(
        [&] { return jobGeneration_.load(std::memory_order_relaxed) != seen; });
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(jobMutex_);
      while (!helpersStopping_ &&
             jobGeneration_.load(std::memory_order_relaxed) == seen) {
        ++helpersParked_;
        jobPosted_.wait(lock);
        --helpersParked_;
      }
      if (helpersStopping_)
        return;
      seen = jobGeneration_.load(std::memory_order_relaxed);
      job = job_;
    }
    if (job)
      runChunks(*job);
  }
}

uint32_t TaskExecutor::helpersParked() {
  std::lock_guard<std::mutex> lock(jobMutex_);
  return helpersParked_;
}

void TaskExecutor::parallelFor(
    uint64_t n, uint64_t grain,
    const std::function<void(uint64_t, uint64_t)> &fn, Split split) {
  if (n == 0)
    return;
  grain = std::max<uint64_t>(grain, 1);
  uint64_t pieces = uint64_t(workerCount_) * kChunksPerWorker;
  uint64_t chunk = std::max<uint64_t>(grain, (n + pieces - 1) / pieces);
  if (chunk >= n || helpers_.empty()) {
    fn(0, n);
    return;
  }
  uint64_t first = 0;
  if (split == Split::kIfWorthAWakeUp &&
      helpersParked() == uint32_t(helpers_.size())) {
    // Every helper would need a wake-up: time one grain (less than a chunk,
    // less than n) to see whether the rest is worth one.
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now();
    fn(0, grain);
    double spent = double((Clock::now() - start).count());
    double rest = spent * double(n - grain) / double(grain);
    if (rest < double(Clock::duration(kWakeWorth).count())) {
      fn(grain, n);
      splitsDeclined_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    first = grain;
    if (n - first <= chunk) {
      // One chunk left: the calling thread would take it before a helper.
      fn(first, n);
      return;
    }
  }
  uint64_t chunks = (n - first + chunk - 1) / chunk;
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->first = first;
  job->n = n;
  job->chunk = chunk;
  job->chunks = chunks;
  job->remaining.store(chunks, std::memory_order_relaxed);
  bool wake;
  {
    std::lock_guard<std::mutex> lock(jobMutex_);
    job_ = job;
    jobGeneration_.fetch_add(1, std::memory_order_relaxed);
    // Helpers still polling see the new generation without a wake-up.
    wake = helpersParked_ != 0;
  }
  if (wake) {
    helperWakeUps_.fetch_add(1, std::memory_order_relaxed);
    jobPosted_.notify_all();
  }
  runChunks(*job);
  auto finished = [&] {
    return job->remaining.load(std::memory_order_acquire) == 0;
  };
  if (!spinUntil(finished)) {
    std::unique_lock<std::mutex> lock(job->doneMutex);
    job->done.wait(lock, finished);
  }
  std::lock_guard<std::mutex> lock(jobMutex_);
  if (job_ == job)
    job_.reset();
}

} // namespace ferry::drivers::local
