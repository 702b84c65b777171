#include "runtime/hal/device.h"

#include <limits>

namespace ferry::hal {

std::optional<BuiltinKernel> builtinKernelFromValue(uint32_t value) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  if (value == v)                                                              \
    return BuiltinKernel::name;
  FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

std::string_view builtinKernelName(BuiltinKernel kernel) {
  switch (kernel) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  case BuiltinKernel::name:                                                    \
    return spelling;
    FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  }
  return "<unknown kernel>";
}

uint32_t builtinKernelInputCount(BuiltinKernel kernel) {
  switch (kernel) {
#define FERRY_X(name, v, spelling, inputs)                                     \
  case BuiltinKernel::name:                                                    \
    return inputs;
    FERRY_BUILTIN_KERNELS(FERRY_X)
#undef FERRY_X
  }
  return 0;
}

DeviceStatistics Device::statistics() const {
  DeviceStatistics stats;
  stats.copies = copies_.load(std::memory_order_relaxed);
  stats.bytesCopied = bytesCopied_.load(std::memory_order_relaxed);
  stats.fills = fills_.load(std::memory_order_relaxed);
  stats.dispatches = dispatches_.load(std::memory_order_relaxed);
  return stats;
}

Status validateDispatch(BuiltinKernel kernel, ElementType elementType,
                        uint64_t count,
                        std::span<const std::shared_ptr<Buffer>> bindings) {
  if (!builtinKernelFromValue(uint32_t(kernel)))
    return invalidArgument("unknown built-in kernel ", uint32_t(kernel));
  std::string_view name = builtinKernelName(kernel);
  size_t elementSize = elementByteSize(elementType);
  if (elementSize == 0)
    return invalidArgument("kernel '", name, "': unknown element type ",
                           uint32_t(elementType));
  size_t expected = builtinKernelInputCount(kernel) + 1;
  if (bindings.size() != expected)
    return invalidArgument("kernel '", name, "' takes ", expected,
                           " bindings (", expected - 1,
                           " inputs then the output), got ", bindings.size());
  if (count > std::numeric_limits<uint64_t>::max() / elementSize)
    return outOfRange("kernel '", name, "': element count ", count,
                      " overflows");
  uint64_t needed = count * elementSize;
  for (size_t i = 0; i < bindings.size(); ++i) {
    std::string role =
        i + 1 == bindings.size() ? std::string("output") : strCat("input ", i);
    const std::shared_ptr<Buffer> &buffer = bindings[i];
    if (!buffer)
      return invalidArgument("kernel '", name, "': binding ", i, " (", role,
                             ") is null");
    if (buffer->isReleased())
      return failedPrecondition("kernel '", name, "': binding ", i, " (", role,
                                ") was already deallocated");
    if (buffer->byteLength() < needed)
      return outOfRange("kernel '", name, "': binding ", i, " (", role,
                        ") has ", buffer->byteLength(), " bytes but ", count,
                        " x ", elementTypeName(elementType), " needs ", needed);
  }
  return okStatus();
}

} // namespace ferry::hal
