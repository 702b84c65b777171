// Context: a module bound to devices, ready to run its functions.
//
// A Context holds a verified Module and one Device per entry of the module's
// device table (in table order; hal.device.get N returns devices()[N]).
// invoke() interprets one function: arguments go into registers in order
// within their kind, the code runs straight through (the opcode set has no
// branches), and `return` hands back Values. Every runtime failure (null ref,
// wrong ref type, division by zero, a failed assert, a failed fence, a device
// error) ends the call with a Status naming the function, the instruction
// and the problem; registers are then dropped, so no buffer leaks.
//
// HAL opcodes are implemented here, next to the scalar ones, rather than in a
// separate "HAL module": they are fixed bytecode opcodes, not imported
// functions, so a call-out layer would add indirection without a second user.
// runtime/modules/ is where native (C++/plugin) modules for external
// functions will live.
//
// Module initialization: create() runs the module initializer (a function
// named bytecode::kInitializerFunctionName, if the module has one) once,
// before returning; it is the only code that may store to the module's
// globals, which later invocations read (e.g. memoized device queries).
//
// Ownership/threads: the Context shares the Module and Devices by
// shared_ptr. invoke() keeps no state between calls (globals are read-only
// after create()) and may run concurrently from several threads.
#ifndef FERRY_RUNTIME_VM_CONTEXT_H_
#define FERRY_RUNTIME_VM_CONTEXT_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/device.h"
#include "runtime/vm/module.h"
#include "runtime/vm/value.h"

namespace ferry::vm {

class Context {
public:
  // Fails unless there is exactly one non-null device per module device, or
  // when the module initializer fails.
  static Result<Context>
  create(std::shared_ptr<const Module> module,
         std::vector<std::shared_ptr<hal::Device>> devices);

  const Module &module() const { return *module_; }
  std::span<const std::shared_ptr<hal::Device>> devices() const {
    return devices_;
  }
  // The module's globals, as the initializer left them.
  std::span<const int64_t> globals() const { return globals_; }

  // Runs `functionName` with `args`. Fails naming the module's functions if
  // it does not exist, and on an argument count or kind mismatch.
  Result<std::vector<Value>> invoke(std::string_view functionName,
                                    std::vector<Value> args) const;

private:
  // Runs the module initializer, if any, with the globals writable.
  Status initialize();

  Context(std::shared_ptr<const Module> module,
          std::vector<std::shared_ptr<hal::Device>> devices)
      : module_(std::move(module)), devices_(std::move(devices)),
        globals_(module_->globalCount(), 0) {}

  std::shared_ptr<const Module> module_;
  std::vector<std::shared_ptr<hal::Device>> devices_;
  std::vector<int64_t> globals_;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_CONTEXT_H_
