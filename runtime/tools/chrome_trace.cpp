#include "runtime/tools/chrome_trace.h"

#include <algorithm>

#include "runtime/vm/context.h"

#include "runtime/tools/json.h"

namespace ferry::tools {
namespace {

// Nanoseconds as microseconds with three decimals, without floating point.
std::string microseconds(int64_t ns) {
  std::string sign = ns < 0 ? "-" : "";
  uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
  std::string fraction = std::to_string(magnitude % 1000);
  fraction.insert(0, 3 - fraction.size(), '0');
  return strCat(sign, magnitude / 1000, ".", fraction);
}

std::string
argsJson(const std::vector<std::pair<std::string, TraceEvent::Arg>> &args) {
  std::string out = "{";
  for (size_t i = 0; i < args.size(); ++i) {
    out += strCat(i ? "," : "", jsonString(args[i].first), ":");
    if (const auto *number = std::get_if<int64_t>(&args[i].second))
      out += std::to_string(*number);
    else
      out += jsonString(std::get<std::string>(args[i].second));
  }
  return out + "}";
}

std::string metadata(std::string_view kind, uint32_t pid, uint32_t tid,
                     std::string_view argName, const std::string &argValue) {
  return strCat("{\"ph\":\"M\",\"name\":", jsonString(kind), ",\"pid\":", pid,
                ",\"tid\":", tid, ",\"args\":{", jsonString(argName), ":",
                argValue, "}}");
}

} // namespace

std::string formatTraceJson(const Trace &trace) {
  std::vector<std::string> lines;
  for (size_t p = 0; p < trace.processes.size(); ++p) {
    const TraceProcess &process = trace.processes[p];
    uint32_t pid = uint32_t(p + 1);
    lines.push_back(
        metadata("process_name", pid, 0, "name", jsonString(process.name)));
    lines.push_back(
        metadata("process_sort_index", pid, 0, "sort_index", strCat(pid)));
    for (size_t t = 0; t < process.threads.size(); ++t) {
      uint32_t tid = uint32_t(t + 1);
      lines.push_back(metadata("thread_name", pid, tid, "name",
                               jsonString(process.threads[t])));
      lines.push_back(
          metadata("thread_sort_index", pid, tid, "sort_index", strCat(tid)));
    }
  }
  std::vector<const TraceEvent *> events;
  for (const TraceEvent &event : trace.events)
    events.push_back(&event);
  std::stable_sort(events.begin(), events.end(),
                   [](const TraceEvent *a, const TraceEvent *b) {
                     return a->timestampNs < b->timestampNs;
                   });
  for (const TraceEvent *event : events) {
    std::string line =
        strCat("{\"ph\":\"", char(event->phase),
               "\",\"name\":", jsonString(event->name),
               ",\"cat\":", jsonString(event->category),
               ",\"pid\":", event->process, ",\"tid\":", event->thread,
               ",\"ts\":", microseconds(event->timestampNs));
    if (event->phase == TraceEvent::Phase::kComplete)
      line += strCat(",\"dur\":", microseconds(event->durationNs));
    if (event->phase == TraceEvent::Phase::kAsyncBegin ||
        event->phase == TraceEvent::Phase::kAsyncEnd)
      line += strCat(",\"id\":", event->id);
    line += strCat(",\"args\":", argsJson(event->args), "}");
    lines.push_back(std::move(line));
  }
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  for (size_t i = 0; i < lines.size(); ++i)
    out += strCat(i ? ",\n" : "\n", lines[i]);
  return out + "\n]}\n";
}

TraceRecorder::TraceRecorder() : epoch_(Clock::now()) {
  trace_.processes.push_back({"vm", {"interpreter"}});
}

TraceRecorder::~TraceRecorder() = default;

int64_t TraceRecorder::since(Clock::time_point time) const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time - epoch_)
      .count();
}

void TraceRecorder::attach(hal::Device &device) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    devices_.push_back({&device, device.sharedAllocator()});
    trace_.processes.push_back(
        {strCat(device.name(), " (", device.driverName(), ")"), {"queue"}});
    sampleLocked(devices_.size() - 1, since(Clock::now()));
  }
  device.setObserver(this);
}

void TraceRecorder::attach(vm::Context &context) { context.setObserver(this); }

void TraceRecorder::sampleLocked(size_t index, int64_t timestampNs) {
  TraceEvent event;
  event.phase = TraceEvent::Phase::kCounter;
  event.name = "live_bytes";
  event.category = "memory";
  event.process = uint32_t(kVmProcess + 1 + index);
  event.timestampNs = timestampNs;
  event.args.emplace_back(
      "bytes", int64_t(devices_[index].allocator->statistics().liveBytes));
  trace_.events.push_back(std::move(event));
}

void TraceRecorder::sampleLiveBytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t now = since(Clock::now());
  for (size_t i = 0; i < devices_.size(); ++i)
    sampleLocked(i, now);
}

void TraceRecorder::recordVmSpan(std::string_view name, Clock::time_point start,
                                 Clock::time_point end) {
  TraceEvent event;
  event.name = std::string(name);
  event.category = "vm";
  event.process = kVmProcess;
  event.timestampNs = since(start);
  event.durationNs = since(end) - event.timestampNs;
  std::lock_guard<std::mutex> lock(mutex_);
  trace_.events.push_back(std::move(event));
}

void TraceRecorder::onQueueOperation(const hal::Device &device,
                                     const hal::QueueOperation &operation) {
  TraceEvent event;
  event.name = std::string(hal::queueOperationKindName(operation.kind));
  event.category = "queue";
  event.timestampNs = since(operation.start);
  event.durationNs = since(operation.end) - event.timestampNs;
  event.args.emplace_back("bytes", int64_t(operation.bytes));
  if (operation.kernel) {
    event.args.emplace_back(
        "kernel", std::string(hal::builtinKernelName(*operation.kernel)));
    event.args.emplace_back("element_type", std::string(hal::elementTypeName(
                                                operation.elementType)));
    event.args.emplace_back("count", int64_t(operation.elementCount));
  }
  if (!operation.entry.empty()) {
    event.args.emplace_back("executable", std::string(operation.executable));
    event.args.emplace_back("entry", std::string(operation.entry));
    event.args.emplace_back("workgroups", int64_t(operation.workgroups));
  }
  if (!operation.ok)
    event.args.emplace_back("failed", int64_t(1));
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < devices_.size(); ++i) {
    if (devices_[i].device != &device)
      continue;
    event.process = uint32_t(kVmProcess + 1 + i);
    trace_.events.push_back(std::move(event));
    sampleLocked(i, since(operation.end));
    return;
  }
  // A device attached to this recorder by someone else: nothing to place
  // the event on.
}

void TraceRecorder::onImportCall(const vm::ImportCallEvent &call) {
  TraceEvent event;
  event.name = std::string(call.name);
  event.category = "import_call";
  event.process = kVmProcess;
  event.timestampNs = since(call.start);
  event.durationNs = since(call.end) - event.timestampNs;
  if (!call.ok)
    event.args.emplace_back("failed", int64_t(1));
  std::lock_guard<std::mutex> lock(mutex_);
  trace_.events.push_back(std::move(event));
}

void TraceRecorder::onImportCompleted(const vm::ImportCallEvent &call) {
  TraceEvent begin;
  begin.phase = TraceEvent::Phase::kAsyncBegin;
  begin.name = std::string(call.name);
  begin.category = "import_completion";
  begin.process = kVmProcess;
  begin.timestampNs = since(call.start);
  TraceEvent end = begin;
  end.phase = TraceEvent::Phase::kAsyncEnd;
  end.timestampNs = since(call.end);
  if (!call.ok)
    end.args.emplace_back("failed", int64_t(1));
  std::lock_guard<std::mutex> lock(mutex_);
  begin.id = end.id = nextAsyncId_++;
  trace_.events.push_back(std::move(begin));
  trace_.events.push_back(std::move(end));
}

Trace TraceRecorder::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return trace_;
}

} // namespace ferry::tools
