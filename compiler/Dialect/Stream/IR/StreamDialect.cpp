// The stream dialect itself: registration, the checks of the stream.*
// attributes (whose values other dialects provide through the interfaces of
// StreamInterfaces.td), and queries over stream code.

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace ferry::stream {

void StreamDialect::initialize() {
  registerTypes();
  registerOperations();
}

// `stream.affinity` (on ops and functions) must be an AffinityAttr and
// `stream.topology` (on the module) an AffinityTopologyAttr, whose devices
// it checks itself. The messages name the attributes users write today,
// the HAL dialect's.
LogicalResult StreamDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == kAffinityAttrName) {
    if (!isa<AffinityAttr>(attr.getValue()))
      return op->emitError()
             << "'" << attr.getName().getValue()
             << "' must be a #hal.device.affinity, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == kTopologyAttrName) {
    auto topology = dyn_cast<AffinityTopologyAttr>(attr.getValue());
    if (!topology || !isa<ModuleOp>(op))
      return op->emitError() << "'" << attr.getName().getValue()
                             << "' must be a #hal.device.topology on a module";
    return topology.verifyDevices(op);
  }
  return success();
}

bool containsStreamOps(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<StreamDialect>(nested->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

FailureOr<bool> hasStraightLineStreamCode(Operation *function, StringRef work) {
  auto func = cast<func::FuncOp>(function);
  if (func.isDeclaration() || !containsStreamOps(func))
    return false;
  if (!func.getBody().hasOneBlock())
    return func.emitError()
           << "function '" << func.getSymName() << "' has several blocks; "
           << work << " supports straight-line functions only";
  return true;
}

} // namespace ferry::stream

#include "compiler/Dialect/Stream/IR/StreamDialect.cpp.inc"
