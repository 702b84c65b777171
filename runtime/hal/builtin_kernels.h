// Built-in kernels: the small library of compute operations every driver
// implements and a dispatch names (Device::queueDispatch; in IR the
// `kernel("add")` of stream.async.dispatch, stream.cmd.dispatch and
// hal.device.queue.dispatch; in a module file the kernel:u32 operand of
// kQueueDispatch).
//
// One list, shared by the compiler (which checks kernel names and encodes
// their values) and the runtime (which validates the values a module carries
// and runs them). It belongs to the HAL: the bytecode format and the
// compiler refer to it, not the other way round. Plain C++: no LLVM or MLIR.
#ifndef FERRY_RUNTIME_HAL_BUILTIN_KERNELS_H_
#define FERRY_RUNTIME_HAL_BUILTIN_KERNELS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace ferry::hal {

// Elementwise kernels. Bindings are the input buffers followed by the output
// buffer; `count` is the element count.
// X(enumerator, value, name, input count)
#define FERRY_BUILTIN_KERNELS(X)                                               \
  X(kAdd, 1, "add", 2)                                                         \
  X(kSub, 2, "sub", 2)                                                         \
  X(kMul, 3, "mul", 2)

enum class BuiltinKernel : uint32_t {
#define FERRY_X(name, value, spelling, inputs) name = value,
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
};

// Validates a raw kernel value from an untrusted source (a module file).
constexpr std::optional<BuiltinKernel> builtinKernelFromValue(uint32_t value) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  if (value == v)                                                              \
    return BuiltinKernel::name;
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

// The kernel a name in IR spells ("add"); nullopt if there is none.
constexpr std::optional<BuiltinKernel>
parseBuiltinKernel(std::string_view name) {
#define FERRY_X(enumerator, value, spelling, inputs)                           \
  if (name == spelling)                                                        \
    return BuiltinKernel::enumerator;
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

constexpr std::string_view builtinKernelName(BuiltinKernel kernel) {
  switch (kernel) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  case BuiltinKernel::name:                                                    \
    return spelling;
    FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  }
  return "<unknown kernel>";
}

// Number of input bindings (the output binding follows them); 0 for a value
// that is not a known kernel.
constexpr uint32_t builtinKernelInputCount(BuiltinKernel kernel) {
  switch (kernel) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  case BuiltinKernel::name:                                                    \
    return inputs;
    FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  }
  return 0;
}

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_BUILTIN_KERNELS_H_
