#include "runtime/hal/fence.h"

#include <algorithm>
#include <atomic>

#include "runtime/base/spin_wait.h"

namespace ferry::hal {

std::shared_ptr<Fence> Fence::create() {
  // One allocation for the fence and its control block.
  struct Shared : Fence {};
  return std::make_shared<Shared>();
}

std::shared_ptr<Fence> Fence::createSignaled() {
  std::shared_ptr<Fence> fence = create();
  fence->signal();
  return fence;
}

std::shared_ptr<Fence>
Fence::join(std::span<const std::shared_ptr<Fence>> fences) {
  std::shared_ptr<Fence> joined = create();
  if (fences.empty()) {
    joined->signal();
    return joined;
  }
  // The join can only complete if every input can.
  bool allWillResolve = true;
  for (const std::shared_ptr<Fence> &fence : fences)
    allWillResolve = allWillResolve && fence->willResolve();
  if (allWillResolve)
    joined->addPendingSignal();
  auto remaining = std::make_shared<std::atomic<size_t>>(fences.size());
  for (const std::shared_ptr<Fence> &fence : fences)
    fence->whenResolved([joined, remaining](const Status &status) {
      if (!status.ok())
        joined->fail(status);
      if (remaining->fetch_sub(1) == 1)
        joined->signal(); // ignored if a failure came first
    });
  return joined;
}

void Fence::signal() { resolve(okStatus()); }

void Fence::fail(Status status) {
  if (status.ok())
    status = internalError("fence failed with an OK status");
  resolve(std::move(status));
}

void Fence::resolve(Status status) {
  std::vector<std::function<void(const Status &)>> callbacks;
  bool notify = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_)
      return;
    status_ = std::move(status);
    resolvedFlag_.store(true, std::memory_order_release);
    callbacks.swap(callbacks_);
    // Most fences are resolved before anyone waits on them (inline
    // execution): skip the condition variable then.
    if (waiters_ == 0)
      notify = false;
  }
  if (notify)
    resolved_.notify_all();
  // status_ never changes once set, so reading it unlocked is safe.
  for (auto &callback : callbacks)
    callback(*status_);
}

bool Fence::willResolve() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_.has_value() || pendingSignals_ > 0;
}

void Fence::whenResolved(std::function<void(const Status &)> callback) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!status_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback(*status_);
}

void Fence::addPendingSignal() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++pendingSignals_;
}

bool Fence::pollResolved(std::chrono::nanoseconds budget) const {
  return spinUntil(
      [&] { return resolvedFlag_.load(std::memory_order_acquire); }, budget);
}

Status Fence::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!status_ && pendingSignals_ == 0)
    return makeStatus(StatusCode::kDeadlock,
                      "waiting on a fence that nothing will ever signal");
  if (status_)
    return *status_;
  lock.unlock();
  if (pollResolved(kSpinBeforeParking))
    return *status_; // set before resolvedFlag_, never changed after
  lock.lock();
  ++waiters_;
  resolved_.wait(lock, [&] { return status_.has_value(); });
  --waiters_;
  return *status_;
}

Status Fence::wait(std::chrono::nanoseconds timeout) {
  // Polling takes its budget out of the timeout.
  std::chrono::nanoseconds poll = std::min(timeout, kSpinBeforeParking);
  if (pollResolved(poll))
    return *status_;
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiters_;
  bool resolved = resolved_.wait_for(lock, timeout - poll,
                                     [&] { return status_.has_value(); });
  --waiters_;
  if (!resolved)
    return deadlineExceeded("fence not signaled within ", timeout.count(),
                            " ns");
  return *status_;
}

std::optional<Status> Fence::query() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

} // namespace ferry::hal
