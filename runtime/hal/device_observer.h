// DeviceObserver: a hook through which a Device reports every queue
// operation it executes, for tracing tools (ferry-run --trace) and tests.
//
// A Device has at most one observer (Device::setObserver). When none is
// attached, a queue operation costs one atomic load more than without the
// hook: no clock is read and the work is not wrapped. An operation submitted
// while an observer is attached reports to that observer: the device reads
// the clock around the operation's execution and calls onQueueOperation once
// it has run (successfully or not), on the thread that ran it: the caller's
// thread for local-sync, the device's queue thread for local-task (or the
// caller's, for a small operation it ran inline: local_device.h). Operations
// rejected at submission (bad arguments, missing capability bits) and
// operations skipped because their wait fence failed never run and are not
// reported.
//
// Ownership/threads: the device does not own its observer. An observer must
// be thread-safe (several devices, and a device's queue thread, report
// concurrently) and must outlive every operation that may report to it:
// detach it (setObserver(nullptr)) only once the device's queue is idle, or
// keep it alive longer than the device.
#ifndef FERRY_RUNTIME_HAL_DEVICE_OBSERVER_H_
#define FERRY_RUNTIME_HAL_DEVICE_OBSERVER_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/hal/builtin_kernels.h"
#include "runtime/hal/element_type.h"

namespace ferry::hal {

class Device;

enum class QueueOperationKind : uint8_t {
  kAlloca,   // a queue alloca took memory from the device's pool
  kDealloca, // a queue dealloca (bytes: what it freed; 0 if nothing was)
  kBarrier,  // a barrier (not a dealloca that freed nothing)
  kFill,
  kCopy,
  kDispatch,
  kHostCall,
};

// Stable lower-case names ("alloca", "dealloca", ...), used as trace event
// names.
inline std::string_view queueOperationKindName(QueueOperationKind kind) {
  switch (kind) {
  case QueueOperationKind::kAlloca:
    return "alloca";
  case QueueOperationKind::kDealloca:
    return "dealloca";
  case QueueOperationKind::kBarrier:
    return "barrier";
  case QueueOperationKind::kFill:
    return "fill";
  case QueueOperationKind::kCopy:
    return "copy";
  case QueueOperationKind::kDispatch:
    return "dispatch";
  case QueueOperationKind::kHostCall:
    return "host_call";
  }
  return "unknown";
}

// One executed queue operation.
struct QueueOperation {
  using Clock = std::chrono::steady_clock;

  QueueOperationKind kind = QueueOperationKind::kBarrier;
  // Bytes allocated, freed, filled or copied; for a dispatch, the bytes of
  // its output binding (element count x element size).
  uint64_t bytes = 0;
  // Built-in dispatches only.
  std::optional<BuiltinKernel> kernel;
  ElementType elementType = ElementType::kI32;
  uint64_t elementCount = 0;
  // Executable dispatches only (Device::queueDispatchEntry; `bytes` is what
  // its written bindings span): the executable and entry names (valid while
  // the observer runs) and the number of workgroups.
  std::string_view executable;
  std::string_view entry;
  uint64_t workgroups = 0;
  // When the operation started and finished running (not when it was
  // submitted), and how it ended.
  Clock::time_point start;
  Clock::time_point end;
  bool ok = true;
};

class DeviceObserver {
public:
  virtual ~DeviceObserver() = default;
  // `device` ran `operation`. Called on the thread that ran it; must not
  // block on the device's queue nor submit work to it.
  virtual void onQueueOperation(const Device &device,
                                const QueueOperation &operation) = 0;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_DEVICE_OBSERVER_H_
