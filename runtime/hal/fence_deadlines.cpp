#include "runtime/hal/fence_deadlines.h"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace ferry::hal {

struct FenceDeadlines::State {
  struct Entry {
    std::weak_ptr<Fence> fence;
    Clock::time_point deadline;
    std::string message;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::map<uint64_t, Entry> entries; // by watch order; few at a time
  uint64_t nextId = 0;
  bool stopping = false;
};

FenceDeadlines::FenceDeadlines() : state_(std::make_shared<State>()) {
  thread_ = std::thread([state = state_] { run(*state); });
}

FenceDeadlines::~FenceDeadlines() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
  }
  state_->changed.notify_all();
  thread_.join();
}

void FenceDeadlines::watch(const std::shared_ptr<Fence> &fence,
                           Clock::duration timeout, std::string message) {
  if (!fence || fence->isResolved())
    return;
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    id = state_->nextId++;
    state_->entries.emplace(
        id, State::Entry{fence, Clock::now() + timeout, std::move(message)});
  }
  state_->changed.notify_all();
  // Forget the fence once it resolves (at once if it already has). Weak:
  // the fence may resolve after this object is gone.
  fence->whenResolved(
      [weakState = std::weak_ptr<State>(state_), id](const Status &) {
        std::shared_ptr<State> state = weakState.lock();
        if (!state)
          return;
        {
          std::lock_guard<std::mutex> lock(state->mutex);
          state->entries.erase(id);
        }
        state->changed.notify_all();
      });
}

void FenceDeadlines::run(State &state) {
  std::unique_lock<std::mutex> lock(state.mutex);
  while (true) {
    // Forget destroyed fences; collect those past their deadline.
    Clock::time_point now = Clock::now();
    std::vector<State::Entry> expired;
    std::optional<Clock::time_point> next;
    for (auto it = state.entries.begin(); it != state.entries.end();) {
      State::Entry &entry = it->second;
      if (entry.fence.expired()) {
        it = state.entries.erase(it);
      } else if (entry.deadline <= now) {
        expired.push_back(std::move(entry));
        it = state.entries.erase(it);
      } else {
        next = next ? std::min(*next, entry.deadline) : entry.deadline;
        ++it;
      }
    }
    if (!expired.empty()) {
      // Failing runs the fence's callbacks, which may lock `state.mutex`.
      lock.unlock();
      for (State::Entry &entry : expired)
        if (std::shared_ptr<Fence> fence = entry.fence.lock())
          fence->fail(deadlineExceeded(entry.message));
      lock.lock();
      continue;
    }
    if (state.entries.empty()) {
      if (state.stopping)
        return;
      state.changed.wait(lock);
    } else {
      state.changed.wait_until(lock, *next);
    }
  }
}

} // namespace ferry::hal
