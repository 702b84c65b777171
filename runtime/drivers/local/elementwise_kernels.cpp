#include "runtime/drivers/local/elementwise_kernels.h"

#include <cstring>
#include <type_traits>

namespace ferry::drivers::local {
namespace {

using hal::BuiltinKernel;
using hal::ElementType;

// Wrapping arithmetic: unsigned overflow is defined, signed is not.
template <typename T> T applyOp(BuiltinKernel kernel, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    // Promote to at least unsigned int so that small types do not go through
    // signed int multiplication (which could overflow).
    using W = std::common_type_t<U, unsigned int>;
    W x = W(U(a)), y = W(U(b));
    W r = 0;
    switch (kernel) {
    case BuiltinKernel::kAdd:
      r = x + y;
      break;
    case BuiltinKernel::kSub:
      r = x - y;
      break;
    case BuiltinKernel::kMul:
      r = x * y;
      break;
    }
    return T(U(r));
  } else {
    switch (kernel) {
    case BuiltinKernel::kAdd:
      return a + b;
    case BuiltinKernel::kSub:
      return a - b;
    case BuiltinKernel::kMul:
      return a * b;
    }
    return T();
  }
}

template <typename T>
void runTyped(BuiltinKernel kernel, uint64_t count, const uint8_t *lhs,
              const uint8_t *rhs, uint8_t *out) {
  // memcpy per element: buffers carry no alignment promise and may alias.
  for (uint64_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, lhs + i * sizeof(T), sizeof(T));
    std::memcpy(&b, rhs + i * sizeof(T), sizeof(T));
    T r = applyOp<T>(kernel, a, b);
    std::memcpy(out + i * sizeof(T), &r, sizeof(T));
  }
}

} // namespace

Status runElementwiseKernel(BuiltinKernel kernel, ElementType elementType,
                            uint64_t count, const uint8_t *lhs,
                            const uint8_t *rhs, uint8_t *out) {
  if (!hal::builtinKernelFromValue(uint32_t(kernel)))
    return invalidArgument("unknown built-in kernel ", uint32_t(kernel));
  switch (elementType) {
  case ElementType::kI8:
    runTyped<int8_t>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kI16:
    runTyped<int16_t>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kI32:
    runTyped<int32_t>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kI64:
    runTyped<int64_t>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kF32:
    runTyped<float>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kF64:
    runTyped<double>(kernel, count, lhs, rhs, out);
    return okStatus();
  case ElementType::kI1:
  case ElementType::kF16:
  case ElementType::kBF16:
    break; // compiled kernels only (the compiler dispatches these)
  }
  return invalidArgument("kernel '", hal::builtinKernelName(kernel),
                         "': unknown element type ", uint32_t(elementType));
}

} // namespace ferry::drivers::local
