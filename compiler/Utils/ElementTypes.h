// MLIR element types as the runtime's element types (runtime/hal/
// element_type.h). Used by every layer that checks or encodes tensors
// (stream and HAL IR, their conversions, the bytecode writer), so it
// belongs to none of them.
#ifndef FERRY_COMPILER_UTILS_ELEMENTTYPES_H_
#define FERRY_COMPILER_UTILS_ELEMENTTYPES_H_

#include "mlir/IR/Types.h"

#include "runtime/hal/element_type.h"

#include <optional>

namespace ferry::hal {

// The runtime element type of an MLIR element type; nullopt when the runtime
// has no such type (e.g. ui8, i4 or f8E4M3). In ferry::hal beside the runtime
// table it maps to; not part of the HAL dialect.
std::optional<ElementType> getRuntimeElementType(mlir::Type type);

} // namespace ferry::hal

#endif // FERRY_COMPILER_UTILS_ELEMENTTYPES_H_
