// The HAL dialect: types, attributes and ops. See HALBase.td and HALOps.td.
#ifndef FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_
#define FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"
#include "compiler/Utils/ABI.h"
#include "compiler/Utils/ElementTypes.h"

#include <optional>

#include "compiler/Dialect/HAL/IR/HALDialect.h.inc"
#include "compiler/Dialect/HAL/IR/HALEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/Dialect/HAL/IR/HALAttrs.h.inc"

#define GET_OP_CLASSES
#include "compiler/Dialect/HAL/IR/HALOps.h.inc"

namespace ferry::hal {

// Capability properties of #hal.device.target and of topology links (see
// their descriptions in HALBase.td).
inline constexpr llvm::StringLiteral kTargetCapabilities[] = {
    "host_visible_memory", "unified_memory", "host_memory_access"};
inline constexpr llvm::StringLiteral kLinkCapabilities[] = {
    "transparent_access", "unified_memory"};
inline constexpr llvm::StringLiteral kHandleTypeLists[] = {
    "import_handle_types", "export_handle_types"};

// Read by the bytecode writer as hal::kTiedMayAliasAttr and
// hal::kResultAllocationAttr.
using ::ferry::kResultAllocationAttr;
using ::ferry::kTiedMayAliasAttr;

// The #hal.device.affinity `op` carries itself (its stream.affinity), or
// null.
inline DeviceAffinityAttr getDeviceAffinity(mlir::Operation *op) {
  return op->getAttrOfType<DeviceAffinityAttr>(stream::kAffinityAttrName);
}
inline void setDeviceAffinity(mlir::Operation *op,
                              DeviceAffinityAttr affinity) {
  if (affinity)
    op->setAttr(stream::kAffinityAttrName, affinity);
}

} // namespace ferry::hal

#endif // FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_
