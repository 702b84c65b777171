// Context: a module bound to devices, ready to run its functions.
//
// A Context holds a verified Module and one Device per entry of the module's
// device table (in table order; hal.device.get N returns devices()[N]).
// invoke() interprets one function: arguments go into registers in order
// within their kind, the code runs, following branches (`br`, `br.cond`,
// whose moves write the target block's argument registers), and `return`
// hands back Values. `call` runs another function of the module in a frame
// of registers of its own; frames live on a stack the interpreter keeps (not
// on the C++ stack), at most kMaxCallDepth deep, so unbounded recursion is an
// error naming the call ("call depth exceeds ..."), not a crash. Every
// runtime failure (null ref, wrong ref type, division by zero, a failed
// assert, a failed fence, a device error, the call depth) ends the
// invocation with a Status naming the function, the instruction, the calls
// that led there and the problem; every frame's registers are then dropped,
// so no buffer leaks.
//
// HAL opcodes are implemented here, next to the scalar ones, rather than in a
// separate "HAL module": they are fixed bytecode opcodes, not imported
// functions, so a call-out layer would add indirection without a second user.
// External functions come from native modules (native_module.h; plugins in
// runtime/modules/): create() resolves every import of the module against
// them, and `call.import` calls the resolved function, checking what it
// returns against the import's result kinds.
//
// External functions that never finish: with ContextOptions::fenceTimeout
// set, each coarse-fences call's signal fence must resolve within that time
// of the call returning; otherwise the context fails it with
// DEADLINE_EXCEEDED naming the function ("external function 'F' did not
// signal its fence within 0.5 s"), and every wait on it (hal.fence.await,
// queue operations ordered after it, later external calls) ends with that
// error instead of hanging. A function that blocks inside its call is not
// interrupted.
//
// Executables: create() loads each of the module's native executables once
// (runtime/hal/executable.h: format, CPU features, ELF, ABI version, entry
// symbols), so a bad or mismatched one fails create() naming it, never a
// later dispatch; hal.device.queue.dispatch.entry runs them.
//
// Module initialization: create() runs the module initializer (a function
// named bytecode::kInitializerFunctionName, if the module has one) once,
// before returning; it is the only code that may store to the module's
// globals, which later invocations read (e.g. memoized device queries).
//
// Ownership/threads: the Context shares the Module and Devices by
// shared_ptr. invoke() keeps no state between calls (globals are read-only
// after create()) and may run concurrently from several threads. With a
// fence timeout, destroying the last copy of a Context waits until every
// external fence it watches has resolved or been failed at its deadline.
#ifndef FERRY_RUNTIME_VM_CONTEXT_H_
#define FERRY_RUNTIME_VM_CONTEXT_H_

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/device.h"
#include "runtime/hal/fence_deadlines.h"
#include "runtime/vm/context_observer.h"
#include "runtime/vm/module.h"
#include "runtime/vm/native_module.h"
#include "runtime/vm/value.h"

namespace ferry::vm {

struct ContextOptions {
  // How long an external function may leave its signal fence pending after
  // its call returns before the fence is failed (see above). Zero: forever.
  std::chrono::nanoseconds fenceTimeout{0};
};

class Context {
public:
  // The most frames one invocation may have (the invoked function counts as
  // one). Deep enough for any sensible recursion over scalars; frames are
  // heap-allocated, so this bounds the frame stack, not the C++ stack.
  static constexpr size_t kMaxCallDepth = 1024;
  // The most registers (both kinds) the frames of one invocation may hold at
  // once: a function may declare 65,534 of each, so the depth alone would
  // let a 100-byte module take gigabytes. 2^20 registers are at most 32 MiB.
  static constexpr size_t kMaxLiveRegisters = size_t(1) << 20;

  // Fails unless there is exactly one non-null device per module device,
  // when two native modules share a name, when an import is not provided by
  // `nativeModules` or its signature or calling convention differs from the
  // native function's (NOT_FOUND / INVALID_ARGUMENT naming the import and
  // what is available), or when the module initializer fails.
  static Result<Context>
  create(std::shared_ptr<const Module> module,
         std::vector<std::shared_ptr<hal::Device>> devices,
         std::vector<std::shared_ptr<const NativeModule>> nativeModules = {},
         ContextOptions options = {});

  const Module &module() const { return *module_; }
  std::span<const std::shared_ptr<hal::Device>> devices() const {
    return devices_;
  }
  // The native function each import resolved to, in import-table order.
  std::span<const NativeFunction *const> resolvedImports() const {
    return imports_;
  }
  // The module's executables, loaded once by create() (executable.h), in
  // executable-table order.
  std::span<const std::shared_ptr<const hal::Executable>> executables() const {
    return executables_;
  }
  // The module's globals, as the initializer left them.
  std::span<const int64_t> globals() const { return globals_; }
  const ContextOptions &options() const { return options_; }

  // Gives `signal`, the program's signal fence of a call to the external
  // function `importName` that returned, options().fenceTimeout to resolve
  // (nothing without a timeout). The interpreter calls it.
  void watchExternalFence(const std::shared_ptr<hal::Fence> &signal,
                          std::string_view importName) const;

  // Constant `index` of the module as a read-only buffer of `device`
  // (hal.device.constant): wrapped once per device and kept for the
  // context's lifetime (copies of the context share them), so each constant
  // is one storage however often the program reads it.
  std::shared_ptr<hal::Buffer> constantBuffer(hal::Device &device,
                                              uint32_t index) const;

  // Attaches `observer` (null detaches) to the import calls of later
  // invocations (context_observer.h: threads, lifetime). Not owned; do not
  // call while an invoke() is running.
  void setObserver(ContextObserver *observer) { observer_ = observer; }
  ContextObserver *observer() const { return observer_; }

  // Runs `functionName` with `args`. Fails naming the module's functions if
  // it does not exist, and on an argument count or kind mismatch.
  Result<std::vector<Value>> invoke(std::string_view functionName,
                                    std::vector<Value> args) const;

private:
  // Runs the module initializer, if any, with the globals writable.
  Status initialize();
  // Fills imports_ from nativeModules_.
  Status resolveImports();
  // Loads every executable of the module into executables_.
  Status loadExecutables();

  Context(std::shared_ptr<const Module> module,
          std::vector<std::shared_ptr<hal::Device>> devices)
      : module_(std::move(module)), devices_(std::move(devices)),
        globals_(module_->globalCount(), 0) {}

  std::shared_ptr<const Module> module_;
  std::vector<std::shared_ptr<hal::Device>> devices_;
  std::vector<std::shared_ptr<const NativeModule>> nativeModules_;
  std::vector<const NativeFunction *> imports_;
  std::vector<std::shared_ptr<const hal::Executable>> executables_;
  std::vector<int64_t> globals_;
  ContextObserver *observer_ = nullptr;
  ContextOptions options_;
  struct ConstantBuffers {
    std::mutex mutex;
    std::map<std::pair<const hal::Device *, uint32_t>,
             std::shared_ptr<hal::Buffer>>
        buffers;
  };
  std::shared_ptr<ConstantBuffers> constantBuffers_ =
      std::make_shared<ConstantBuffers>();
  // Set when options_.fenceTimeout is; shared by copies of the context.
  std::shared_ptr<hal::FenceDeadlines> fenceDeadlines_;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_CONTEXT_H_
