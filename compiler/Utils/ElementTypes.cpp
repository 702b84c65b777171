#include "compiler/Utils/ElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace ferry::hal {

std::optional<ElementType> getRuntimeElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isUnsigned())
      return std::nullopt;
    switch (intType.getWidth()) {
    case 1:
      return ElementType::kI1;
    case 8:
      return ElementType::kI8;
    case 16:
      return ElementType::kI16;
    case 32:
      return ElementType::kI32;
    case 64:
      return ElementType::kI64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return ElementType::kF16;
  if (type.isBF16())
    return ElementType::kBF16;
  if (type.isF32())
    return ElementType::kF32;
  if (type.isF64())
    return ElementType::kF64;
  return std::nullopt;
}

} // namespace ferry::hal
