// The stream dialect's interfaces (StreamInterfaces.td), in a library of
// their own so that dialects implementing them need not link the stream
// dialect.

#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"

#include "compiler/Dialect/Stream/IR/StreamAttrInterfaces.cpp.inc"
#include "compiler/Dialect/Stream/IR/StreamOpInterfaces.cpp.inc"
#include "compiler/Dialect/Stream/IR/StreamTypeInterfaces.cpp.inc"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace ferry::stream {

LogicalResult verifyAffinityDevices(Operation *module) {
  llvm::StringSet<> declared;
  std::string declaredList;
  for (Operation &op : module->getRegion(0).getOps())
    if (isa<DeviceDeclarationOpInterface>(op))
      if (auto symbol = dyn_cast<SymbolOpInterface>(op)) {
        declared.insert(symbol.getName());
        declaredList +=
            (declaredList.empty() ? "@" : ", @") + symbol.getName().str();
      }
  bool ok = true;
  auto check = [&](Attribute attr, Location loc) {
    auto affinity = dyn_cast_or_null<AffinityAttr>(attr);
    if (!affinity || declared.contains(affinity.getDeviceSymbol().getValue()))
      return;
    InFlightDiagnostic diag = emitError(loc)
                              << "'" << kAffinityAttrName << "' names device "
                              << affinity.getDeviceSymbol()
                              << ", which the module does not declare (no "
                                 "hal.device.global "
                              << affinity.getDeviceSymbol() << ")";
    if (declaredList.empty())
      diag << "; it declares no device";
    else
      diag << "; it declares " << declaredList;
    ok = false;
  };
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module && isa<ModuleOp>(op))
      return WalkResult::skip();
    check(op->getAttr(kAffinityAttrName), op->getLoc());
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
        check(function.getArgAttr(i, kAffinityAttrName),
              function.isExternal() ? op->getLoc()
                                    : function.getArgument(i).getLoc());
      for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
        check(function.getResultAttr(i, kAffinityAttrName), op->getLoc());
    }
    return WalkResult::advance();
  });
  return success(ok);
}

} // namespace ferry::stream
