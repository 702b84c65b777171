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

#include "runtime/hal/element_type.h"

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

// The module attribute holding a user-written #hal.device.topology.
inline constexpr llvm::StringLiteral kTopologyAttrName = "stream.topology";
// The #hal.device.affinity an op (or a function, or a function argument or
// result) runs on; in input programs and on stream ops.
inline constexpr llvm::StringLiteral kAffinityAttrName = "stream.affinity";

// On an external func.func: the callee may write a tied output over storage
// it also receives as an input (it reads each input element before it writes
// the output element at the same position, as elementwise functions do), so
// a caller may pass a dying input's storage as the output. ferry-compile
// sets it from a plugin's declaration (--module); the runtime checks that
// the function it binds declares it too.
inline constexpr llvm::StringLiteral kTiedMayAliasAttr =
    "ferry.abi.tied_may_alias";

// The affinity `op` carries itself, or null.
inline DeviceAffinityAttr getAffinity(mlir::Operation *op) {
  return op->getAttrOfType<DeviceAffinityAttr>(kAffinityAttrName);
}
inline void setAffinity(mlir::Operation *op, DeviceAffinityAttr affinity) {
  if (affinity)
    op->setAttr(kAffinityAttrName, affinity);
}

// Checks that every link of `topology` names a hal.device.global of `module`.
mlir::LogicalResult verifyTopologyDevices(mlir::Operation *module,
                                          DeviceTopologyAttr topology);

// The runtime element type of an MLIR element type; nullopt when the runtime
// has no such type (e.g. bf16 or i1 today).
std::optional<ElementType> getRuntimeElementType(mlir::Type type);

} // namespace ferry::hal

#endif // FERRY_COMPILER_DIALECT_HAL_IR_HALDIALECT_H_
