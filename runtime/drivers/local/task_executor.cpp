#include "runtime/drivers/local/task_executor.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "runtime/base/spin_wait.h"

namespace ferry::drivers::local {

struct TaskExecutor::Job {
  const std::function<void(uint64_t, uint64_t)> *fn;
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

void TaskExecutor::queueLoop() {
  for (;;) {
    std::function<void()> item;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (queue_.empty() && !stopping_) {
        lock.unlock();
        spinUntil([&] { return queued_.load(std::memory_order_acquire) != 0; });
        lock.lock();
        queueThreadParked_ = true;
        queueChanged_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        queueThreadParked_ = false; // also when woken by shutdown()
      }
      if (queue_.empty())
        return; // stopping and drained
      item = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    item();
  }
}

void TaskExecutor::runChunks(Job &job) {
  for (;;) {
    uint64_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.chunks)
      return;
    uint64_t begin = i * job.chunk;
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
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(jobMutex_);
      jobPosted_.wait(
          lock, [&] { return helpersStopping_ || jobGeneration_ != seen; });
      if (helpersStopping_)
        return;
      seen = jobGeneration_;
      job = job_;
    }
    if (job)
      runChunks(*job);
  }
}

void TaskExecutor::parallelFor(
    uint64_t n, uint64_t grain,
    const std::function<void(uint64_t, uint64_t)> &fn) {
  if (n == 0)
    return;
  uint64_t chunk = std::max<uint64_t>(std::max<uint64_t>(grain, 1),
                                      (n + workerCount_ - 1) / workerCount_);
  uint64_t chunks = (n + chunk - 1) / chunk;
  if (chunks <= 1 || helpers_.empty()) {
    fn(0, n);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  job->chunk = chunk;
  job->chunks = chunks;
  job->remaining.store(chunks, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(jobMutex_);
    job_ = job;
    ++jobGeneration_;
  }
  jobPosted_.notify_all();
  runChunks(*job);
  {
    std::unique_lock<std::mutex> lock(job->doneMutex);
    job->done.wait(lock, [&] {
      return job->remaining.load(std::memory_order_acquire) == 0;
    });
  }
  std::lock_guard<std::mutex> lock(jobMutex_);
  if (job_ == job)
    job_.reset();
}

} // namespace ferry::drivers::local
