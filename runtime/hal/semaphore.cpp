#include "runtime/hal/semaphore.h"

#include <algorithm>
#include <vector>

#include "runtime/base/spin_wait.h"

namespace ferry::hal {

std::shared_ptr<Semaphore> Semaphore::create(uint64_t initialValue) {
  return std::shared_ptr<Semaphore>(new Semaphore(initialValue));
}

Result<uint64_t> Semaphore::query() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_)
    return *failure_;
  return value_;
}

Status Semaphore::signal(uint64_t value) {
  std::vector<std::shared_ptr<Fence>> reached;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_)
      return failedPrecondition("signal of a failed semaphore: ",
                                failure_->toString());
    if (value <= value_)
      return invalidArgument("semaphore signal to ", value,
                             " does not advance its value ", value_);
    value_ = value;
    published_.store(value, std::memory_order_release);
    auto end = timepoints_.upper_bound(value);
    for (auto it = timepoints_.begin(); it != end; ++it)
      reached.push_back(std::move(it->second));
    timepoints_.erase(timepoints_.begin(), end);
  }
  changed_.notify_all();
  for (auto &fence : reached)
    fence->signal();
  return okStatus();
}

void Semaphore::fail(Status status) {
  if (status.ok())
    status = internalError("semaphore failed with an OK status");
  std::multimap<uint64_t, std::shared_ptr<Fence>> pending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_)
      return;
    failure_ = status;
    published_.store(UINT64_MAX, std::memory_order_release);
    pending.swap(timepoints_);
  }
  changed_.notify_all();
  for (auto &[value, fence] : pending)
    fence->fail(status);
}

Status Semaphore::wait(uint64_t value, std::chrono::nanoseconds timeout) {
  // Polling takes its budget out of the timeout; the answer is read under
  // the mutex either way.
  std::chrono::nanoseconds poll = std::min(timeout, kSpinBeforeParking);
  bool reached = spinUntil(
      [&] { return published_.load(std::memory_order_acquire) >= value; },
      poll);
  if (!reached && timeout != std::chrono::nanoseconds::max())
    timeout -= poll;
  std::unique_lock<std::mutex> lock(mutex_);
  auto ready = [&] { return failure_.has_value() || value_ >= value; };
  if (timeout == std::chrono::nanoseconds::max())
    changed_.wait(lock, ready);
  else if (!changed_.wait_for(lock, timeout, ready))
    return deadlineExceeded("semaphore did not reach ", value, " within ",
                            timeout.count(), " ns (it is at ", value_, ")");
  if (failure_)
    return *failure_;
  return okStatus();
}

std::shared_ptr<Fence> Semaphore::fenceAt(uint64_t value) {
  std::shared_ptr<Fence> fence = Fence::create();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_ && value_ < value) {
      fence->addPendingSignal();
      timepoints_.emplace(value, fence);
      return fence;
    }
  }
  Result<uint64_t> current = query();
  if (current.ok())
    fence->signal();
  else
    fence->fail(current.status());
  return fence;
}

} // namespace ferry::hal
