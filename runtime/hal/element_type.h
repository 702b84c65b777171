// Element types of tensors that cross the compiler/runtime boundary.
//
// One list, shared by the compiler (which encodes element types into the
// bytecode and into hal.buffer_view ops) and the runtime (which checks inputs,
// runs kernels and prints outputs). Plain C++: no LLVM or MLIR.
#ifndef FERRY_RUNTIME_HAL_ELEMENT_TYPE_H_
#define FERRY_RUNTIME_HAL_ELEMENT_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ferry::hal {

// X(enumerator, value, spelling, byte size, is float)
//
// i1 is one byte per element holding 0 or 1 (NumPy's bool, LLVM's i1 in
// memory). f16 is IEEE binary16, bf16 the upper half of an f32; both are
// converted by hand (runtime/hal/float16.h).
#define FERRY_ELEMENT_TYPES(X)                                                 \
  X(kI1, 7, "i1", 1, false)                                                    \
  X(kI8, 1, "i8", 1, false)                                                    \
  X(kI16, 2, "i16", 2, false)                                                  \
  X(kI32, 3, "i32", 4, false)                                                  \
  X(kI64, 4, "i64", 8, false)                                                  \
  X(kF16, 8, "f16", 2, true)                                                   \
  X(kBF16, 9, "bf16", 2, true)                                                 \
  X(kF32, 5, "f32", 4, true)                                                   \
  X(kF64, 6, "f64", 8, true)

enum class ElementType : uint32_t {
#define FERRY_X(name, value, spelling, size, is_float) name = value,
  FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
};

// Size in bytes of one element; 0 for a value that is not a known type.
constexpr size_t elementByteSize(ElementType type) {
  switch (type) {
#define FERRY_X(name, value, spelling, size, is_float)                         \
  case ElementType::name:                                                      \
    return size;
    FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  }
  return 0;
}

constexpr bool isFloatElementType(ElementType type) {
  switch (type) {
#define FERRY_X(name, value, spelling, size, is_float)                         \
  case ElementType::name:                                                      \
    return is_float;
    FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  }
  return false;
}

// The spelling used in MLIR types and in ferry-run's input/output format.
constexpr std::string_view elementTypeName(ElementType type) {
  switch (type) {
#define FERRY_X(name, value, spelling, size, is_float)                         \
  case ElementType::name:                                                      \
    return spelling;
    FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  }
  return "<unknown element type>";
}

// Every spelling, in table order, for messages: "i1, i8, ..., f64".
inline constexpr std::string_view kElementTypeList =
    "i1, i8, i16, i32, i64, f16, bf16, f32 or f64";

constexpr std::optional<ElementType> parseElementType(std::string_view text) {
#define FERRY_X(name, value, spelling, size, is_float)                         \
  if (text == spelling)                                                        \
    return ElementType::name;
  FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

// Validates a raw value read from an untrusted source (a module file).
constexpr std::optional<ElementType> elementTypeFromValue(uint32_t value) {
#define FERRY_X(name, v, spelling, size, is_float)                             \
  if (value == v)                                                              \
    return ElementType::name;
  FERRY_ELEMENT_TYPES(FERRY_X)
#undef FERRY_X
  return std::nullopt;
}

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_ELEMENT_TYPE_H_
