#include "compiler/Dialect/Stream/Analysis/DeviceUses.h"

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace ferry::stream {

ModuleDeviceUses::ModuleDeviceUses(ModuleOp module) {
  llvm::MapVector<StringAttr, llvm::SetVector<StringAttr>> calls;
  for (auto func : module.getOps<func::FuncOp>()) {
    Affinities &uses = ownAndCallees[func.getSymNameAttr()];
    func.walk([&](Operation *op) {
      if (AffinityAttr affinity = getAffinity(op))
        uses.insert(affinity);
      else if (isa<StreamDialect>(op->getDialect()))
        uses.insert(AffinityAttr()); // runs on the default device
      if (auto call = dyn_cast<func::CallOp>(op))
        calls[func.getSymNameAttr()].insert(call.getCalleeAttr().getAttr());
    });
  }
  // Through calls, to a fixpoint (call graphs are small; cycles end it).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[caller, callees] : calls)
      for (StringAttr callee : callees)
        for (AffinityAttr affinity : llvm::to_vector(ownAndCallees[callee]))
          changed |= ownAndCallees[caller].insert(affinity);
  }
  // A value a function returns is used by its callers, and by theirs where
  // they return it in turn (to a fixpoint: a buffer made two calls down and
  // used on another device must be allocated to be shared with it).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto &[caller, callees] : calls) {
      Affinities reach = ownAndCallees[caller];
      for (AffinityAttr affinity : callers[caller])
        reach.insert(affinity);
      for (StringAttr callee : callees)
        for (AffinityAttr affinity : reach)
          changed |= callers[callee].insert(affinity);
    }
  }
}

void ModuleDeviceUses::addAll(const llvm::DenseMap<StringAttr, Affinities> &map,
                              StringAttr name, Affinities &into,
                              bool &defaultDeviceUse) const {
  auto it = map.find(name);
  if (it == map.end())
    return;
  for (AffinityAttr affinity : it->second) {
    if (affinity)
      into.insert(affinity);
    else
      defaultDeviceUse = true;
  }
}

ModuleDeviceUses::Affinities
ModuleDeviceUses::usingAffinities(Operation *op, Value resource,
                                  func::FuncOp func,
                                  bool &defaultDeviceUse) const {
  Affinities affinities;
  auto addUser = [&](Operation *user) {
    if (AffinityAttr affinity = getAffinity(user))
      affinities.insert(affinity);
    else
      defaultDeviceUse = true;
    auto exportOp = dyn_cast<TensorExportOp>(user);
    if (!exportOp)
      return;
    for (Operation *viewUser : exportOp.getResult().getUsers()) {
      if (auto call = dyn_cast<func::CallOp>(viewUser))
        addAll(ownAndCallees, call.getCalleeAttr().getAttr(), affinities,
               defaultDeviceUse);
      else if (isa<func::ReturnOp>(viewUser))
        addAll(callers, func.getSymNameAttr(), affinities, defaultDeviceUse);
    }
  };
  addUser(op);
  // Users inside regions count (a value carried into a loop is used there),
  // in program order: use-list order depends on how the IR was built.
  SmallVector<Operation *> users = getStorageUsers(resource);
  // Bookkeeping on the host is no use on a device.
  llvm::erase_if(users, [](Operation *user) {
    return isa<ResourceDeallocaOp, ResourceSizeOp, ResourceRetainOp,
               ResourceReleaseOp, ResourceIsTerminalOp>(user);
  });
  llvm::stable_sort(users, startsBefore);
  for (Operation *user : users)
    addUser(user);
  return affinities;
}

} // namespace ferry::stream
