// Semaphore: a timeline of monotonically increasing uint64 values.
//
// Producers signal() larger values as work completes; consumers wait for a
// value (with a timeout) or take a Fence for a value (fenceAt) to feed queue
// operations, so a whole sequence of submissions needs one object rather
// than one fence each. fail(status) poisons the timeline: every waiter,
// present and future, and every fence taken from it receive that status, so
// an error reaches whoever waits at the end.
//
// Ownership/threads: held by std::shared_ptr; every method is thread-safe.
#ifndef FERRY_RUNTIME_HAL_SEMAPHORE_H_
#define FERRY_RUNTIME_HAL_SEMAPHORE_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "runtime/base/status.h"
#include "runtime/hal/fence.h"

namespace ferry::hal {

class Semaphore {
public:
  static std::shared_ptr<Semaphore> create(uint64_t initialValue = 0);
  Semaphore(const Semaphore &) = delete;
  Semaphore &operator=(const Semaphore &) = delete;

  // The current value, or the failure.
  Result<uint64_t> query() const;
  // Advances to `value`. Fails if `value` is not larger than the current
  // value or the semaphore failed.
  Status signal(uint64_t value);
  // Poisons the timeline with `status` (first failure wins).
  void fail(Status status);
  // Blocks until the value is >= `value` (OK), the semaphore fails (its
  // status) or `timeout` passes (DEADLINE_EXCEEDED). Polls briefly before
  // it parks, like Fence::wait.
  Status
  wait(uint64_t value,
       std::chrono::nanoseconds timeout = std::chrono::nanoseconds::max());
  // A fence resolved when the value reaches `value` (or failed with the
  // semaphore's failure). The semaphore counts as its pending producer.
  std::shared_ptr<Fence> fenceAt(uint64_t value);

private:
  explicit Semaphore(uint64_t value) : value_(value), published_(value) {}

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t value_;
  // value_ (or UINT64_MAX once failed), stored under mutex_ for a waiter to
  // poll before it parks (spin_wait.h).
  std::atomic<uint64_t> published_;
  std::optional<Status> failure_;
  std::multimap<uint64_t, std::shared_ptr<Fence>> timepoints_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_SEMAPHORE_H_
