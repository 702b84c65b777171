#include "runtime/tools/scalar_value.h"

#include <cstring>

namespace ferry::tools {

using vm::bytecode::ScalarType;

Result<hal::ElementType> scalarElementType(ScalarType type) {
  switch (type) {
  case ScalarType::kI1:
    return hal::ElementType::kI1;
  case ScalarType::kI8:
    return hal::ElementType::kI8;
  case ScalarType::kI16:
    return hal::ElementType::kI16;
  case ScalarType::kI32:
    return hal::ElementType::kI32;
  case ScalarType::kI64:
  case ScalarType::kIndex:
    return hal::ElementType::kI64;
  case ScalarType::kF32:
    return hal::ElementType::kF32;
  case ScalarType::kF64:
    return hal::ElementType::kF64;
  case ScalarType::kF16:
    return hal::ElementType::kF16;
  case ScalarType::kBF16:
    return hal::ElementType::kBF16;
  }
  return unimplemented("ferry-run cannot read or save ",
                       vm::bytecode::scalarTypeName(type), " scalars");
}

Result<int64_t> scalarFromTensor(const HostTensor &tensor, ScalarType type) {
  FERRY_ASSIGN_OR_RETURN(hal::ElementType elementType, scalarElementType(type));
  if (!tensor.shape.empty() || tensor.elementType != elementType)
    return invalidArgument("expected a 0-d ", hal::elementTypeName(elementType),
                           ", got ", tensor.typeString());
  size_t size = hal::elementByteSize(elementType);
  uint64_t raw = 0;
  std::memcpy(&raw, tensor.bytes.data(), size); // little-endian
  unsigned shift = 64 - unsigned(size) * 8;
  int64_t value = shift ? int64_t(raw << shift) >> shift : int64_t(raw);
  if (type == ScalarType::kI1 && value != 0 && value != 1)
    return invalidArgument("an i1 is 0 or 1, got ", value);
  return value;
}

Result<HostTensor> scalarToTensor(int64_t value, ScalarType type) {
  FERRY_ASSIGN_OR_RETURN(hal::ElementType elementType, scalarElementType(type));
  HostTensor tensor;
  tensor.elementType = elementType;
  tensor.bytes.resize(hal::elementByteSize(elementType));
  if (type == ScalarType::kI1)
    value &= 1;
  std::memcpy(tensor.bytes.data(), &value, tensor.bytes.size());
  return tensor;
}

std::string formatScalar(int64_t value, ScalarType type) {
  Result<HostTensor> tensor = scalarToTensor(value, type);
  std::string_view name = vm::bytecode::scalarTypeName(type);
  if (!tensor.ok())
    return strCat(name, "=?");
  // "i32=5" as a 0-d tensor prints, under the scalar's own type name.
  std::string text = formatTensor({}, tensor->elementType, tensor->bytes);
  return strCat(name, text.substr(text.find('=')));
}

} // namespace ferry::tools
