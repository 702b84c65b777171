#include "runtime/vm/native_module.h"

namespace ferry::vm {

Status NativeModule::addFunction(NativeFunction function) {
  if (function.name.empty())
    return invalidArgument("native module '", name_,
                           "': a function needs a name");
  if (lookup(function.name))
    return invalidArgument("native module '", name_, "' defines '",
                           function.name, "' twice");
  if (!function.body)
    return invalidArgument("native function '", name_, ".", function.name,
                           "' has no body");
  if (function.flags & ~bytecode::kKnownImportFlags)
    return invalidArgument("native function '", name_, ".", function.name,
                           "' has unknown flag bits ",
                           function.flags & ~bytecode::kKnownImportFlags);
  if (function.flags & bytecode::kImportCoarseFences) {
    size_t n = function.argKinds.size();
    if (n < 2 || function.argKinds[n - 2] != bytecode::RegisterKind::kRef ||
        function.argKinds[n - 1] != bytecode::RegisterKind::kRef)
      return invalidArgument("native function '", name_, ".", function.name,
                             "' uses the coarse-fences ABI but its last two "
                             "arguments are not refs (the wait and signal "
                             "fences)");
  }
  functions_.push_back(std::move(function));
  return okStatus();
}

const NativeFunction *NativeModule::lookup(std::string_view name) const {
  for (const NativeFunction &function : functions_)
    if (function.name == name)
      return &function;
  return nullptr;
}

} // namespace ferry::vm
