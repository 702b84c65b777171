#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace ferry::stream {

bool isLastUse(OpOperand &use) {
  Operation *owner = use.getOwner();
  Block *block = owner->getBlock();
  for (OpOperand &other : use.get().getUses()) {
    if (other.getOwner() == owner)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*other.getOwner());
    if (!ancestor || ancestor == owner || !ancestor->isBeforeInBlock(owner))
      return false;
  }
  // A use inside a loop may run again after later iterations read the value.
  Region *defining = use.get().getParentRegion();
  for (Operation *parent = owner->getParentOp();
       parent && defining->isAncestor(parent->getParentRegion());
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return false;
  return true;
}

void retypeStorageChain(Value resource, Type type) {
  // The storage is every value tied to `resource`, in both directions: what
  // it was written into (its tied operand, and that one's, ...) and every
  // in-place write into it or them, even one branching off the chain (a
  // fill of a returned value: copy-on-write clones before it later).
  SmallVector<Value> worklist = {resource};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value.getType() == type)
      continue;
    value.setType(type);
    if (auto tiedOp = dyn_cast_or_null<TiedOpInterface>(value.getDefiningOp()))
      if (OpOperand *tied = tiedOp.getTiedOperand(cast<OpResult>(value)))
        worklist.push_back(tied->get());
    for (OpOperand &use : value.getUses()) {
      auto writer = dyn_cast<TiedOpInterface>(use.getOwner());
      if (!writer)
        continue;
      for (OpResult result : writer->getResults())
        if (writer.getTiedOperand(result) == &use)
          worklist.push_back(result);
    }
  }
}

bool WritableStorage::isWritable(Value resource) {
  auto it = cache.find(resource);
  if (it != cache.end())
    return it->second;
  cache[resource] = false; // a cycle answers "not writable"
  bool writable = computeWritable(resource);
  cache[resource] = writable;
  return writable;
}

bool WritableStorage::computeWritable(Value resource) {
  if (auto arg = dyn_cast<BlockArgument>(resource))
    return isWritableArgument(arg);
  Operation *def = resource.getDefiningOp();
  if (isa<AsyncAllocaOp, AsyncSplatOp, AsyncCloneOp, AsyncTransferOp>(def))
    return true;
  // A buffer a function of the module returned: the callee handed over its
  // only ownership (it returns fresh buffers, never its arguments), so it is
  // the program's own, like a new result.
  if (auto import = dyn_cast<TensorImportOp>(def))
    return import.getConsume() &&
           import.getSource().getDefiningOp<func::CallOp>();
  if (auto tiedOp = dyn_cast<TiedOpInterface>(def)) {
    if (OpOperand *tied = tiedOp.getTiedOperand(cast<OpResult>(resource)))
      return isWritable(tied->get());
    // New results of dispatches and calls are the program's own.
    return isa<AsyncDispatchOp, AsyncCallOp>(def);
  }
  return false;
}

bool WritableStorage::isWritableArgument(BlockArgument arg) {
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getBody().front() || func.isPublic())
    return false;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses)
    return false;
  bool anyCall = false;
  for (const SymbolTable::SymbolUse &symbolUse : *uses) {
    auto call = dyn_cast<AsyncCallOp>(symbolUse.getUser());
    if (!call)
      return false; // referenced in a way we cannot see through
    anyCall = true;
    OpOperand &passed = call.getResourceOperandsMutable()[arg.getArgNumber()];
    if (!isLastUse(passed) || !isWritable(passed.get()))
      return false;
  }
  return anyCall;
}

} // namespace ferry::stream
