// ContextObserver: a hook through which a Context reports the external
// (imported) functions its programs call, for tracing tools (ferry-run
// --trace) and tests. Queue operations are reported by the devices
// themselves (runtime/hal/device_observer.h).
//
// For every `call.import` the interpreter reports onImportCall once the
// native function has returned, on the interpreter's thread, with the time
// spent in it. A coarse-fences call may finish its work later on a thread of
// its own: when the interpreter handed the callee a signal fence, it also
// reports onImportCompleted once that fence resolves, on the resolving
// thread (possibly before onImportCall, if the callee signals before
// returning), spanning from the call's start to the resolution.
//
// With no observer attached, an import call costs one pointer test more.
//
// Ownership/threads: the Context does not own its observer. An observer must
// be thread-safe and outlive every call and every signal fence of the
// Context's invocations (an asynchronous callee may resolve its fence after
// invoke() returned).
#ifndef FERRY_RUNTIME_VM_CONTEXT_OBSERVER_H_
#define FERRY_RUNTIME_VM_CONTEXT_OBSERVER_H_

#include <chrono>
#include <string_view>

namespace ferry::vm {

struct ImportCallEvent {
  using Clock = std::chrono::steady_clock;

  std::string_view name; // "module.function"; valid during the callback only
  Clock::time_point start;
  // onImportCall: when the native function returned; onImportCompleted: when
  // its signal fence resolved.
  Clock::time_point end;
  bool ok = true; // the call returned / the fence signalled successfully
};

class ContextObserver {
public:
  virtual ~ContextObserver() = default;
  virtual void onImportCall(const ImportCallEvent &event) = 0;
  virtual void onImportCompleted(const ImportCallEvent &event) = 0;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_CONTEXT_OBSERVER_H_
