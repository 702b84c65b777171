// Fence: one point on a device timeline that work waits on and signals.
//
// A fence starts pending and is resolved exactly once: signal() (the work
// before it completed) or fail(status) (it never will; the status says why).
// wait() blocks until it is resolved and returns OK or the failure, so an
// error travels down a chain of queue operations to whoever waits at the end.
//
// A pending fence that nothing has promised to resolve can never complete;
// waiting on it would hang forever, so wait() reports a kDeadlock error
// instead. Asynchronous producers (later drivers, a task executor) call
// addPendingSignal() when they accept work that will resolve the fence.
// Synchronous drivers resolve fences before returning, so they never need to.
//
// A fence can also stand for a point on a timeline Semaphore
// (Semaphore::fenceAt, semaphore.h): it resolves when the semaphore reaches
// the value, or fails with the semaphore's failure.
//
// Ownership/threads: held by std::shared_ptr; every method is thread-safe.
#ifndef FERRY_RUNTIME_HAL_FENCE_H_
#define FERRY_RUNTIME_HAL_FENCE_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "runtime/base/status.h"

namespace ferry::hal {

class Fence {
public:
  static std::shared_ptr<Fence> create();
  // A fence that is already signaled (e.g. "no dependency").
  static std::shared_ptr<Fence> createSignaled();
  // A fence signaled when all of `fences` are, or failed with the first
  // failure as soon as one fails (the others may still be pending).
  // Signaled for an empty list.
  static std::shared_ptr<Fence>
  join(std::span<const std::shared_ptr<Fence>> fences);

  Fence(const Fence &) = delete;
  Fence &operator=(const Fence &) = delete;

  // Resolves the fence. The first resolution wins; later ones are ignored so
  // that racing failure paths cannot turn a failure into success.
  void signal();
  void fail(Status status);

  // Declares that some producer will resolve this fence, so wait() blocks
  // rather than reporting a deadlock.
  void addPendingSignal();
  // Resolved, or promised to be by some producer.
  bool willResolve() const;

  // Runs `callback` with the final status once resolved: immediately on this
  // thread if already resolved, else on the resolving thread. Callbacks must
  // not block; they exist so fences can be composed without a waiting thread.
  void whenResolved(std::function<void(const Status &)> callback);

  // Blocks until resolved; OK if signaled, the failure otherwise. Polls for
  // up to kSpinBeforeParking (runtime/base/spin_wait.h) before it parks, so
  // a fence resolved by another thread within microseconds costs no
  // wake-up; a resolution wakes only parked waiters.
  Status wait();
  // Same, giving up after `timeout` with DEADLINE_EXCEEDED (the fence stays
  // pending). A zero timeout polls.
  Status wait(std::chrono::nanoseconds timeout);
  // Non-blocking: nullopt while pending, else what wait() would return.
  std::optional<Status> query() const;
  bool isResolved() const { return query().has_value(); }

protected:
  Fence() = default; // create(); protected so make_shared can reach it

private:
  void resolve(Status status);
  // Polls resolvedFlag_ for up to `budget`; true once resolved.
  bool pollResolved(std::chrono::nanoseconds budget) const;

  mutable std::mutex mutex_;
  std::condition_variable resolved_;
  std::optional<Status> status_; // set once, under mutex_
  // Set (release) right after status_, so a waiter polling it before it
  // parks (spin_wait.h) may then read status_ without the mutex.
  std::atomic<bool> resolvedFlag_{false};
  uint32_t pendingSignals_ = 0;
  uint32_t waiters_ = 0; // threads parked in wait() (not those polling)
  std::vector<std::function<void(const Status &)>> callbacks_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_FENCE_H_
