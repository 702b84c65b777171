// TaskExecutor: the local-task driver's engine. One queue thread runs queue
// operations strictly in submission order (so pools stay stream-ordered and
// the queue contract in runtime/hal/device.h holds), and a set of helper
// threads joins it to split the bulk of one operation (a copy, a fill, a
// dispatch) into chunks.
//
// Ownership/threads: owned by its device. enqueue() may be called from any
// thread; parallelFor() only from the queue thread (from inside an enqueued
// item). shutdown() (and the destructor, if it has not run) runs everything
// already queued, then joins every thread.
#ifndef FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_
#define FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_

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
  // Queues `item` behind everything queued before it.
  void enqueue(std::function<void()> item);
  // Runs fn(begin, end) over [0, n) in at most workerCount chunks of at least
  // `grain` units, and returns when all are done.
  void parallelFor(uint64_t n, uint64_t grain,
                   const std::function<void(uint64_t, uint64_t)> &fn);

private:
  struct Job;
  void queueLoop();
  void helperLoop();
  static void runChunks(Job &job);

  uint32_t workerCount_;
  std::mutex mutex_;
  std::condition_variable queueChanged_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;

  std::mutex jobMutex_;
  std::condition_variable jobPosted_;
  std::shared_ptr<Job> job_;
  uint64_t jobGeneration_ = 0;
  bool helpersStopping_ = false;

  std::thread queueThread_;
  std::vector<std::thread> helpers_;
};

} // namespace ferry::drivers::local

#endif // FERRY_RUNTIME_DRIVERS_LOCAL_TASK_EXECUTOR_H_
