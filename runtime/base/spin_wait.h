// spinUntil: polls a condition for a short while before a thread parks.
//
// Parking a thread (a condition variable wait) and waking it again costs
// tens of microseconds in a virtual machine: the wake-up is a system call,
// and the sleeper must be scheduled back. When the other side of a hand-off
// usually answers within a few microseconds (a queue thread taking the next
// operation, a host waiting on the fence of one it just issued), polling
// first avoids both. The budget bounds the CPU burned when no answer comes:
// an idle thread polls once for kSpinBeforeParking, then parks and uses no
// CPU.
//
// Polling only helps while the thread being waited for has a CPU of its
// own. On an oversubscribed machine it is worse than useless: the poller
// holds a CPU the other side needs, and the scheduler then ranks both
// threads behind everything else (a round trip of a local-task queue
// operation went from 14 us to 520 us at load average 40 on 2 CPUs). So
// spinUntil polls only when the machine's runnable threads (the fourth
// field of /proc/loadavg, sampled at most every 10 ms for the whole
// process) are no more than its CPUs; otherwise the caller parks at once.
//
// Ownership/threads: a pure function; `ready` is called from the calling
// thread only and must be cheap (an atomic load).
#ifndef FERRY_RUNTIME_BASE_SPIN_WAIT_H_
#define FERRY_RUNTIME_BASE_SPIN_WAIT_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace ferry {

// How long a waiter polls before it parks.
inline constexpr std::chrono::nanoseconds kSpinBeforeParking =
    std::chrono::microseconds(50);

// Lets the other hyperthread run while this one polls.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Whether the machine has a CPU for every runnable thread (see above).
// Where /proc/loadavg cannot be read, assumes it has.
inline bool cpusToSpare() {
  using Clock = std::chrono::steady_clock;
  static const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  static std::atomic<int64_t> sampledAt{0}; // 0: never
  static std::atomic<bool> spare{true};
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    Clock::now().time_since_epoch())
                    .count();
  int64_t last = sampledAt.load(std::memory_order_relaxed);
  if ((last != 0 && now - last < 10'000'000) ||
      !sampledAt.compare_exchange_strong(last, now, std::memory_order_relaxed))
    return spare.load(std::memory_order_relaxed);
  // "0.52 0.58 0.59 3/467 12345": runnable/total is the fourth field.
  char text[128];
  int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  ssize_t length = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
  if (fd >= 0)
    close(fd);
  if (length <= 0)
    return spare.load(std::memory_order_relaxed);
  text[length] = 0;
  const char *field = text;
  for (int spaces = 0; *field && spaces < 3; ++field)
    spaces += *field == ' ';
  long runnable = std::strtol(field, nullptr, 10);
  bool result = runnable <= 0 || cpus <= 0 || runnable <= cpus;
  spare.store(result, std::memory_order_relaxed);
  return result;
}

// Polls `ready` until it returns true (then true) or `budget` has passed
// (then false, and the caller parks); checks it once and returns at once
// when !cpusToSpare().
template <typename Ready>
bool spinUntil(Ready &&ready,
               std::chrono::nanoseconds budget = kSpinBeforeParking) {
  using Clock = std::chrono::steady_clock;
  if (ready())
    return true;
  if (budget <= std::chrono::nanoseconds::zero() || !cpusToSpare())
    return false;
  Clock::time_point deadline = Clock::now() + budget;
  for (uint32_t i = 1;; ++i) {
    cpuRelax();
    if (ready())
      return true;
    // The clock is read every 32 polls (a poll is a few dozen ns).
    if (i % 32 == 0 && Clock::now() >= deadline)
      return ready();
  }
}

} // namespace ferry

#endif // FERRY_RUNTIME_BASE_SPIN_WAIT_H_
