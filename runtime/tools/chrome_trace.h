// Chrome trace event JSON for `ferry-run --trace=PATH`: what a run did on
// each device queue and in the VM, as a file that opens in the Perfetto UI
// (ui.perfetto.dev) and chrome://tracing.
//
// Two parts:
//   - formatTraceJson(): the writer. A Trace is a list of processes (each with
//     named threads) and events; it becomes {"traceEvents": [...]} with
//     metadata events naming every process and thread, then the events in
//     timestamp order (microseconds, nanosecond precision).
//   - TraceRecorder: the observer of the runtime's tracing hooks
//     (hal::DeviceObserver, vm::ContextObserver) that builds a Trace:
//       process 1 "vm", thread "interpreter": spans the tool records
//         (recordVmSpan, e.g. the invocation) and one "X" event per import
//         call (category "import_call", name "module.function"), plus an
//         async span ("b"/"e", category "import_completion") from each
//         coarse-fences call to the resolution of its signal fence;
//       process 2 + i per attached device i, named "NAME (DRIVER)", thread
//         "queue": one "X" event per executed queue operation (category
//         "queue", name alloca / dealloca / barrier / fill / copy / dispatch
//         / host_call, args bytes and for built-in dispatches kernel,
//         element_type and count, for executable dispatches executable,
//         entry and workgroups), and a counter "live_bytes" (args {"bytes":
//         N}): the device allocator's live bytes after each operation and
//         whenever sampleLiveBytes() is called.
//
// Ownership/threads: TraceRecorder is thread-safe (one mutex around the
// event list); it keeps each attached device's allocator alive so the final
// sample can be taken after the devices are gone. It must outlive the work
// of every device and Context it is attached to (see the observer headers).
#ifndef FERRY_RUNTIME_TOOLS_CHROME_TRACE_H_
#define FERRY_RUNTIME_TOOLS_CHROME_TRACE_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/hal/allocator.h"
#include "runtime/hal/device.h"
#include "runtime/hal/device_observer.h"
#include "runtime/vm/context_observer.h"

namespace ferry::vm {
class Context;
} // namespace ferry::vm

namespace ferry::tools {

struct TraceEvent {
  enum class Phase : char {
    kComplete = 'X',   // a span with a duration
    kCounter = 'C',    // a counter sample (args are the series)
    kAsyncBegin = 'b', // nestable async span begin / end, paired by id
    kAsyncEnd = 'e',
  };
  using Arg = std::variant<int64_t, std::string>;

  Phase phase = Phase::kComplete;
  std::string name;
  std::string category;
  uint32_t process = 1; // Trace::processes[process - 1]
  uint32_t thread = 1;  // that process's threads[thread - 1]
  int64_t timestampNs = 0;
  int64_t durationNs = 0; // kComplete only
  uint64_t id = 0;        // async events only
  std::vector<std::pair<std::string, Arg>> args;
};

struct TraceProcess {
  std::string name;
  std::vector<std::string> threads;
};

struct Trace {
  std::vector<TraceProcess> processes;
  std::vector<TraceEvent> events;
};

// The JSON text of `trace` (the "JSON Object Format" of the Trace Event
// Format). Events are sorted by timestamp; metadata events come first.
std::string formatTraceJson(const Trace &trace);

class TraceRecorder final : public hal::DeviceObserver,
                            public vm::ContextObserver {
public:
  using Clock = std::chrono::steady_clock;

  // Timestamps count from construction.
  TraceRecorder();
  ~TraceRecorder() override;

  // Gives `device` its own process and counter track (in attach order),
  // records a first live-bytes sample and attaches this recorder as its
  // observer.
  void attach(hal::Device &device);
  // Attaches this recorder to `context`'s import calls.
  void attach(vm::Context &context);

  // Records a live-bytes sample of every attached device's allocator now.
  void sampleLiveBytes();
  // Records a span on the VM's track.
  void recordVmSpan(std::string_view name, Clock::time_point start,
                    Clock::time_point end);

  // A copy of what was recorded so far.
  Trace snapshot() const;
  std::string json() const { return formatTraceJson(snapshot()); }

  void onQueueOperation(const hal::Device &device,
                        const hal::QueueOperation &operation) override;
  void onImportCall(const vm::ImportCallEvent &event) override;
  void onImportCompleted(const vm::ImportCallEvent &event) override;

  static constexpr uint32_t kVmProcess = 1;

private:
  struct DeviceTrack {
    const hal::Device *device;
    std::shared_ptr<hal::Allocator> allocator;
  };

  int64_t since(Clock::time_point time) const;
  // Appends a live-bytes sample of track `index` (mutex_ held).
  void sampleLocked(size_t index, int64_t timestampNs);

  const Clock::time_point epoch_;
  mutable std::mutex mutex_;
  std::vector<DeviceTrack> devices_;
  Trace trace_;
  uint64_t nextAsyncId_ = 1;
};

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_CHROME_TRACE_H_
