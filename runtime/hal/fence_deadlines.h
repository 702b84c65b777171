// FenceDeadlines: fails fences that are not resolved in time.
//
// A fence that some producer promised to resolve (an external function's
// signal fence) can still stay pending forever when the producer is broken,
// and then everything waiting on it hangs: the program, queue operations
// waiting inline or on a queue thread, other plugins. watch() gives such a
// fence a deadline; if it is still pending then, it is failed with
// DEADLINE_EXCEEDED and the watcher's message, which every waiter receives
// as the fence's failure. A fence that resolves (or is destroyed) first is
// forgotten. One thread sleeps until the earliest deadline.
//
// Ownership/threads: every method is thread-safe; fences are held weakly.
// The destructor waits until each watched fence has resolved, been
// destroyed or reached its deadline (and been failed), so work still
// waiting on one cannot outlive it hung.
#ifndef FERRY_RUNTIME_HAL_FENCE_DEADLINES_H_
#define FERRY_RUNTIME_HAL_FENCE_DEADLINES_H_

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "runtime/hal/fence.h"

namespace ferry::hal {

class FenceDeadlines {
public:
  using Clock = std::chrono::steady_clock;

  FenceDeadlines();
  ~FenceDeadlines();
  FenceDeadlines(const FenceDeadlines &) = delete;
  FenceDeadlines &operator=(const FenceDeadlines &) = delete;

  // Fails `fence` with deadlineExceeded(message) unless it resolves within
  // `timeout` from now. A null or already resolved fence is ignored.
  void watch(const std::shared_ptr<Fence> &fence, Clock::duration timeout,
             std::string message);

private:
  struct State;
  static void run(State &state);

  std::shared_ptr<State> state_;
  std::thread thread_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_FENCE_DEADLINES_H_
