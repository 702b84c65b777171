// The stream dialect's interfaces (see StreamInterfaces.td) and the
// attributes that carry them. Dialects that implement the interfaces (HAL)
// include this header alone, not the whole stream dialect.
#ifndef FERRY_COMPILER_DIALECT_STREAM_IR_STREAMINTERFACES_H_
#define FERRY_COMPILER_DIALECT_STREAM_IR_STREAMINTERFACES_H_

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Types.h"

#include "compiler/Dialect/Stream/IR/StreamAttrInterfaces.h.inc"
#include "compiler/Dialect/Stream/IR/StreamOpInterfaces.h.inc"
#include "compiler/Dialect/Stream/IR/StreamTypeInterfaces.h.inc"

namespace ferry::stream {

// The AffinityAttr an op (or a function, or a function argument or result)
// runs on; in input programs and on stream ops.
inline constexpr llvm::StringLiteral kAffinityAttrName = "stream.affinity";
// The module's AffinityTopologyAttr, when a user wrote one.
inline constexpr llvm::StringLiteral kTopologyAttrName = "stream.topology";

// The affinity `op` carries itself, or null.
inline AffinityAttr getAffinity(mlir::Operation *op) {
  return op->getAttrOfType<AffinityAttr>(kAffinityAttrName);
}
// The affinity work made for `value` runs on where the op making it has
// none (a region op's result, a block argument): that of the nearest op
// around it that carries one (an enclosing region op, the function, whose
// ops the program placed there), else null (the default device).
inline AffinityAttr getEnclosingAffinity(mlir::Value value) {
  mlir::Operation *op = value.getDefiningOp();
  if (!op)
    op = value.getParentBlock()->getParentOp();
  for (; op; op = op->getParentOp())
    if (AffinityAttr affinity = getAffinity(op))
      return affinity;
  return {};
}
// Places `op` on `affinity`; a null affinity leaves `op` as it is.
inline void setAffinity(mlir::Operation *op, AffinityAttr affinity) {
  if (affinity)
    op->setAttr(kAffinityAttrName, affinity);
}

// Checks that every `stream.affinity` in `module` (on its ops, functions and
// their arguments and results; nested modules aside) names a device the
// module declares: an op implementing DeviceDeclarationOpInterface. Reports
// each one that does not, at the op or argument carrying it, naming the
// device. Passes that look devices up by an affinity's symbol run this first.
mlir::LogicalResult verifyAffinityDevices(mlir::Operation *module);

// Whether work on `lhs` and work on `rhs` may share one queue; null (no
// affinity) shares only with null.
inline bool canExecuteTogether(AffinityAttr lhs, AffinityAttr rhs) {
  if (!lhs || !rhs)
    return lhs == rhs;
  return lhs.isExecutableWith(rhs);
}

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_IR_STREAMINTERFACES_H_
