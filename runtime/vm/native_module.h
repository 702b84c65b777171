// NativeModule: external functions written in C++, which bytecode modules
// call through their import table (`call.import`).
//
// A bytecode module names each function it calls but does not define as
// "module.function" (e.g. "Double.function", from a `func.func private
// @Double.function` in the input program). An embedding application builds a
// NativeModule named "Double" with a function "function" and passes it to
// Context::create, which resolves every import up front: an import that no
// native module provides, or whose signature (argument and result register
// kinds, calling convention) differs from what the native function declares,
// makes create() fail naming it. Loadable plugins (runtime/modules/plugin.h)
// are turned into NativeModules the same way.
//
// Calling conventions (bytecode::ImportFlags):
//   - plain: the function gets its arguments and returns its results; it runs
//     on the interpreter's thread and may block.
//   - coarse-fences: the last two arguments are a wait fence and a signal
//     fence (either may be a null ref, meaning "nothing to wait for" /
//     "nobody waits"). The function must not block. It may return at once
//     and finish later on a thread of its own, touching buffer contents only
//     after the wait fence is signalled, and must then resolve the signal
//     fence exactly once: signal() on success, fail(status) on failure. The
//     results (buffer views) are returned synchronously; a result tied to an
//     operand may be that operand's view or another view of its buffer, and
//     its contents are defined once the signal fence is. A ref result that
//     is not a buffer view (null, a fence) fails the call, and the program's
//     signal fence, naming the function. The interpreter
//     hands the function its own signal fence and forwards its resolution to
//     the program's, adding the function's name to a failure; a synchronous
//     error return fails the program's signal fence too.
//
// New results (bytecode::kImportResultAllocation): a result tied to no
// operand is allocated by the function through its CallContext, on the
// device and with the memory types and usage the compiler resolved for it,
// in the shape the function decides (a dynamic one included). The function
// must return exactly the view allocateResult gave it for that result; any
// other view fails the call naming the function and the result. The program
// owns the result (it frees it at its last use). The view is usable, like
// the arguments, once the wait fence is signalled.
//
// Ownership/threads: a NativeModule is immutable once built; share it by
// std::shared_ptr<const NativeModule>. Functions may be called from several
// threads at once (one per concurrent Context::invoke) and must be
// thread-safe accordingly. `keepAlive` lets a module pin whatever owns its
// code (a loaded plugin) for as long as any Context uses it.
#ifndef FERRY_RUNTIME_VM_NATIVE_MODULE_H_
#define FERRY_RUNTIME_VM_NATIVE_MODULE_H_

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/element_type.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/value.h"

namespace ferry::vm {

// What the runtime offers a native function during one call.
class CallContext {
public:
  virtual ~CallContext() = default;
  // Allocates new result `index` (a result tied to no operand) as a view of
  // `shape` and `elementType`. Fails naming the result when the call has no
  // allocation request for it (a tied result, or a program compiled without
  // new results), when it was allocated already, or when the device cannot
  // allocate it. Only during the call, on the thread making it.
  virtual Result<std::shared_ptr<hal::BufferView>>
  allocateResult(size_t index, std::span<const int64_t> shape,
                 hal::ElementType elementType) = 0;
};

using NativeFunctionBody = std::function<Result<std::vector<Value>>(
    std::span<const Value> args, CallContext &call)>;

struct NativeFunction {
  std::string name; // without the module prefix: "function"
  std::vector<bytecode::RegisterKind> argKinds;
  std::vector<bytecode::RegisterKind> resultKinds;
  uint32_t flags = bytecode::kImportFlagsNone; // bytecode::ImportFlags
  NativeFunctionBody body;
};

class NativeModule {
public:
  explicit NativeModule(std::string name,
                        std::shared_ptr<const void> keepAlive = nullptr)
      : name_(std::move(name)), keepAlive_(std::move(keepAlive)) {}

  const std::string &name() const { return name_; }

  // Adds a function. Fails on an empty or duplicate name, a null body, or a
  // coarse-fences function whose last two arguments are not refs.
  Status addFunction(NativeFunction function);

  const std::vector<NativeFunction> &functions() const { return functions_; }
  // Null if absent.
  const NativeFunction *lookup(std::string_view name) const;

private:
  std::string name_;
  std::shared_ptr<const void> keepAlive_;
  std::vector<NativeFunction> functions_;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_NATIVE_MODULE_H_
