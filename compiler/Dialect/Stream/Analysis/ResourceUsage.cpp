#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace ferry::stream {

// The op after which `exportOp`'s view is no longer needed: the last of the
// calls it is lent to (in its block), the export itself when unused, or
// null when the view is handed out for good (returned, stored, ...).
static Operation *lastLendingUse(TensorExportOp exportOp) {
  Operation *last = exportOp;
  for (Operation *user : exportOp.getResult().getUsers()) {
    if (!isa<func::CallOp>(user) || user->getBlock() != exportOp->getBlock())
      return nullptr;
    if (last->isBeforeInBlock(user))
      last = user;
  }
  return last;
}

// Whether control can come back to `block` without passing `avoid`: the
// block is in a cycle of branches that does not define the value again.
static bool isInCycleAvoiding(Block *block, Block *avoid) {
  SmallVector<Block *> worklist(block->getSuccessors());
  llvm::SmallPtrSet<Block *, 8> seen;
  while (!worklist.empty()) {
    Block *next = worklist.pop_back_val();
    if (next == block)
      return true;
    if (next == avoid || !seen.insert(next).second)
      continue;
    llvm::append_range(worklist, next->getSuccessors());
  }
  return false;
}

bool isBranchRegionOp(Operation *op) {
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch || branch.hasLoop())
    return false;
  // No region takes arguments, and each hands its values back with
  // scf.yield (what the passes rebuild and append timepoints to).
  for (Region &region : op->getRegions()) {
    if (!region.empty() && region.front().getNumArguments() != 0)
      return false;
    for (Block &block : region)
      if (block.mightHaveTerminator() &&
          isa<RegionBranchTerminatorOpInterface>(block.back()) &&
          !isa<scf::YieldOp>(block.back()))
        return false;
  }
  return true;
}

std::optional<bool> thenRunsWhen(scf::IfOp ifOp, Value go, bool goesOn) {
  Value test = ifOp.getCondition();
  if (go == test)
    return goesOn;
  auto a = go.getDefiningOp<arith::CmpIOp>();
  auto b = test.getDefiningOp<arith::CmpIOp>();
  if (a && b && a.getLhs() == b.getLhs() && a.getRhs() == b.getRhs() &&
      a.getPredicate() == arith::invertPredicate(b.getPredicate()))
    return !goesOn;
  if (auto negated = go.getDefiningOp<arith::XOrIOp>())
    for (auto [x, y] : {std::pair(negated.getLhs(), negated.getRhs()),
                        std::pair(negated.getRhs(), negated.getLhs())})
      if (x == test && matchPattern(y, m_One()))
        return !goesOn;
  if (auto trunc = go.getDefiningOp<arith::TruncIOp>())
    go = trunc.getIn();
  auto result = dyn_cast<OpResult>(go);
  if (!result || result.getOwner() != ifOp)
    return std::nullopt;
  // A region yielding the other value (as i1: the low bit, as the
  // truncation keeps it) did not run.
  unsigned number = result.getResultNumber();
  auto contradicts = [&](scf::YieldOp yield) {
    APInt constant;
    return matchPattern(yield.getOperand(number), m_ConstantInt(&constant)) &&
           constant[0] != goesOn;
  };
  bool notThen = contradicts(ifOp.thenYield());
  bool notElse = contradicts(ifOp.elseYield());
  if (notThen == notElse)
    return std::nullopt;
  return notElse;
}

bool isStructuredRegionOp(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp>(op) || isBranchRegionOp(op);
}

std::optional<CarriedPosition> getCarriedPosition(Value value) {
  Operation *op;
  unsigned index;
  bool isResult = false;
  if (auto result = dyn_cast<OpResult>(value)) {
    op = result.getOwner();
    index = result.getResultNumber();
    isResult = true;
  } else {
    auto arg = cast<BlockArgument>(value);
    op = arg.getOwner()->getParentOp();
    index = arg.getArgNumber();
  }
  CarriedPosition position;
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (!isResult && index-- == 0)
      return std::nullopt; // the induction variable
    position.values = {forOp.getRegionIterArgs()[index],
                       forOp.getResult(index)};
    position.incoming = {
        &forOp.getInitArgsMutable()[index],
        &forOp.getBody()->getTerminator()->getOpOperand(index)};
    return position;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == whileOp.getBeforeBody()) {
      position.values = {arg};
      position.incoming = {&whileOp.getInitsMutable()[index],
                           &whileOp.getYieldOp()->getOpOperand(index)};
      return position;
    }
    position.values = {whileOp.getAfterArguments()[index],
                       whileOp.getResult(index)};
    position.incoming = {&whileOp.getConditionOp().getArgsMutable()[index]};
    return position;
  }
  if (isBranchRegionOp(op)) {
    if (!isResult)
      return std::nullopt; // a block of a region with several (branches)
    position.values = {value};
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
          position.incoming.push_back(&yield->getOpOperand(index));
    return position;
  }
  return std::nullopt;
}

Value getPassedInto(OpOperand &use) {
  Operation *owner = use.getOwner();
  unsigned n = use.getOperandNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
    if (n < forOp.getNumControlOperands())
      return {};
    return forOp.getRegionIterArgs()[n - forOp.getNumControlOperands()];
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(owner))
    return whileOp.getBeforeArguments()[n];
  if (isa<scf::ConditionOp>(owner))
    return n == 0 ? Value() : owner->getParentOp()->getResult(n - 1);
  if (isa<scf::YieldOp>(owner)) {
    Operation *parent = owner->getParentOp();
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      return whileOp.getBeforeArguments()[n];
    if (isa<scf::ForOp>(parent) || isBranchRegionOp(parent))
      return parent->getResult(n);
  }
  return {};
}

SmallVector<Operation *> getStorageUsers(Value resource) {
  SmallVector<Operation *> users;
  llvm::SmallPtrSet<Operation *, 8> seenUsers;
  SmallVector<Value> worklist = {resource};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto await = dyn_cast<TimepointAwaitOp>(user)) {
        unsigned first = await.getResourceOperands().getBeginOperandIndex();
        unsigned index = use.getOperandNumber();
        if (index >= first && index - first < await.getNumResults())
          worklist.push_back(await.getResult(index - first));
        continue;
      }
      if (Value passed = getPassedInto(use)) {
        if (std::optional<CarriedPosition> position =
                getCarriedPosition(passed))
          llvm::append_range(worklist, position->values);
        continue;
      }
      // The other uses of a region op or its terminators (bounds, a
      // condition) are scalars.
      if (isa<scf::YieldOp, scf::ConditionOp>(user) ||
          (user->getNumRegions() != 0 &&
           isa<scf::SCFDialect>(user->getDialect())))
        continue;
      // A result written into the resource in place (a tied call result)
      // is the same storage under another name; the writer uses it too.
      if (auto tiedOp = dyn_cast<TiedOpInterface>(user))
        llvm::append_range(worklist, tiedOp.getTiedResults(use));
      if (seenUsers.insert(user).second)
        users.push_back(user);
    }
  }
  return users;
}

bool startsBefore(Operation *a, Operation *b) {
  if (a == b)
    return false;
  // Up from `b` to the first block that holds `a` or an op around it.
  Operation *bChild = nullptr;
  for (Operation *bAncestor = b; bAncestor;
       bChild = bAncestor, bAncestor = bAncestor->getParentOp()) {
    Block *block = bAncestor->getBlock();
    Operation *aAncestor = block ? block->findAncestorOpInBlock(*a) : nullptr;
    if (!aAncestor)
      continue;
    if (aAncestor != bAncestor)
      return aAncestor->isBeforeInBlock(bAncestor);
    if (bAncestor == b)
      return false; // `b` encloses `a`
    if (aAncestor == a)
      return true; // `a` encloses `b`
    // Both inside `bAncestor`, in different blocks: its regions in order,
    // each region's blocks in order.
    Operation *aChild = a;
    while (aChild->getParentOp() != bAncestor)
      aChild = aChild->getParentOp();
    Region *aRegion = aChild->getParentRegion();
    Region *bRegion = bChild->getParentRegion();
    if (aRegion != bRegion)
      return aRegion->getRegionNumber() < bRegion->getRegionNumber();
    for (Block &candidate : *aRegion) {
      if (&candidate == aChild->getBlock())
        return true;
      if (&candidate == bChild->getBlock())
        return false;
    }
  }
  return false; // different functions: no order
}

bool areExclusive(Operation *a, Operation *b) {
  for (Operation *child = a, *op = a->getParentOp(); op;
       child = op, op = op->getParentOp()) {
    if (!op->isAncestor(b))
      continue;
    return isBranchRegionOp(op) && op != b &&
           !child->getParentRegion()->isAncestor(b->getParentRegion());
  }
  return false;
}

// Whether `user` runs before `owner` (or never in the same run, as in
// another branch of an scf.if), so that it cannot read what `owner` leaves.
static bool runsBefore(Operation *user, Operation *owner) {
  for (Operation *op = owner; op; op = op->getParentOp()) {
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor) {
      // Another block of the same region: control may get there later.
      if (op->getBlock()->getParent()->hasOneBlock())
        continue;
      return false;
    }
    if (ancestor != op)
      return ancestor->isBeforeInBlock(op);
    // `user` is inside `op` (the owner itself, or another of its regions).
    return areExclusive(user, owner);
  }
  return false;
}

// Whether some op reading the storage of `position` (a carried position a
// value was passed into without being moved there) may run after `owner`,
// or is `owner` itself (which would then read what it writes through
// another name).
static bool positionReadAfter(const CarriedPosition &position,
                              Operation *owner) {
  for (Value value : position.values) {
    for (Operation *user : getStorageUsers(value)) {
      if (auto exportOp = dyn_cast<TensorExportOp>(user)) {
        user = lastLendingUse(exportOp);
        if (!user)
          return true;
      }
      if (user == owner || !runsBefore(user, owner))
        return true;
    }
  }
  return false;
}

bool isLastUse(OpOperand &use) {
  Operation *owner = use.getOwner();
  for (OpOperand &other : use.get().getUses()) {
    Operation *user = other.getOwner();
    if (user == owner)
      continue;
    if (auto exportOp = dyn_cast<TensorExportOp>(user)) {
      user = lastLendingUse(exportOp);
      if (!user)
        return false; // the view may be used after the function returns
    }
    if (user == owner || !runsBefore(user, owner))
      return false;
    // A value passed into a carried position that is still read here was
    // not moved there: it was shared, uncopied, because nothing wrote
    // either side (isOnlyRead). The position holds the same storage (a
    // loop that runs no iteration returns its init itself; a branch
    // yields it), so its later readers read this value too. (Not where the
    // pass is in another branch than `owner`: it never hands the value on
    // in a run that reaches `owner`.)
    if (Value passed = getPassedInto(other))
      if (std::optional<CarriedPosition> position = getCarriedPosition(passed))
        if (!areExclusive(user, owner) && positionReadAfter(*position, owner))
          return false;
  }
  // A use inside a loop may run again after later iterations read the value.
  Value value = use.get();
  Region *defining = value.getParentRegion();
  for (Operation *op = owner; op && defining->isAncestor(op->getParentRegion());
       op = op->getParentOp()) {
    if (op != owner && isa<LoopLikeOpInterface>(op))
      return false;
    Block *opBlock = op->getBlock();
    Block *avoid =
        opBlock->getParent() == defining ? value.getParentBlock() : nullptr;
    if (opBlock != avoid && isInCycleAvoiding(opBlock, avoid))
      return false;
    if (op->getParentRegion() == defining)
      break;
  }
  return true;
}

// isOnlyRead, where `visiting` holds the positions' values being asked
// about already (answering "only read" for them: a loop reading its
// iter_arg and yielding it unchanged).
static bool isOnlyRead(Value resource, llvm::SmallPtrSetImpl<Value> &visiting) {
  if (!visiting.insert(resource).second)
    return true;
  for (OpOperand &use : resource.getUses()) {
    Operation *user = use.getOwner();
    if (auto tiedOp = dyn_cast<TiedOpInterface>(user);
        tiedOp && tiedOp.isOperandTied(use))
      return false; // written in place
    // Passed on into a region op's position: read if all it holds is.
    if (Value passed = getPassedInto(use)) {
      std::optional<CarriedPosition> position = getCarriedPosition(passed);
      if (!position || !llvm::all_of(position->values, [&](Value value) {
            return isOnlyRead(value, visiting);
          }))
        return false;
      continue;
    }
    bool reads =
        TypeSwitch<Operation *, bool>(user)
            .Case<AsyncCloneOp, AsyncTransferOp, AsyncDispatchOp,
                  AsyncDispatchEntryOp, AsyncUpdateOp, ResourceLoadOp,
                  AsyncSliceOp>([](auto) { return true; })
            // An external function reads its untied inputs; a function of
            // the module may write an argument it is given as a last use.
            .Case<AsyncCallOp>([&](AsyncCallOp call) {
              auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                  call, call.getCalleeAttr());
              return callee && callee.isDeclaration();
            })
            // A view lent to calls is imported there without ownership,
            // which the callee never writes.
            .Case<TensorExportOp>([](TensorExportOp exportOp) {
              return lastLendingUse(exportOp) != nullptr;
            })
            .Default([](Operation *) { return false; });
    if (!reads)
      return false;
  }
  return true;
}

bool isOnlyRead(Value resource) {
  llvm::SmallPtrSet<Value, 8> visiting;
  return isOnlyRead(resource, visiting);
}

void retypeStorageChain(Value resource, Type type) {
  // The storage is every value tied to `resource`, in both directions: what
  // it was written into (its tied operand, and that one's, ...) and every
  // in-place write into it or them, even one branching off the chain (a
  // fill of a returned value: copy-on-write clones before it later), and
  // through region ops every value of a carried position it is in or
  // passed into (the init, block argument, yields and result of a loop).
  SmallVector<Value> worklist = {resource};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    // (A tensor still waiting for import, in a body being imported.)
    if (value.getType() == type || !isa<ResourceType>(value.getType()))
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
    // A carried position is one storage with what is passed into it.
    for (OpOperand &use : value.getUses())
      if (Value passed = getPassedInto(use))
        worklist.push_back(passed);
    if (std::optional<CarriedPosition> position = getCarriedPosition(value)) {
      llvm::append_range(worklist, position->values);
      for (OpOperand *incoming : position->incoming)
        worklist.push_back(incoming->get());
    }
  }
}

// Whether `view` is an argument the host lent for a result to be written
// into (`stream.tied_operands` on a function with a body, from
// `iree.abi.tied`): the function may write it in place.
static bool isLentForResult(Value view) {
  auto arg = dyn_cast<BlockArgument>(view);
  auto func =
      arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
  if (!func || arg.getOwner() != &func.getBody().front())
    return false;
  auto ties = func->getAttrOfType<DenseI64ArrayAttr>(kTiedOperandsAttr);
  return ties && llvm::is_contained(ties.asArrayRef(),
                                    static_cast<int64_t>(arg.getArgNumber()));
}

void WritableStorage::remember(Value value, bool writable) {
  if (!cache.count(value))
    answered.push_back(value);
  cache[value] = writable;
}

bool WritableStorage::isWritable(Value resource) {
  auto it = cache.find(resource);
  if (it != cache.end())
    return it->second;
  if (std::optional<CarriedPosition> position = getCarriedPosition(resource)) {
    if (isa<ResourceType>(resource.getType()))
      return isWritablePosition(*position);
    return false;
  }
  remember(resource, false); // a cycle answers "not writable"
  bool writable = computeWritable(resource);
  remember(resource, writable);
  return writable;
}

// A loop's iter_arg is written in place and yielded back: whether it is
// writable depends on itself. The position is assumed writable while its
// incoming values are asked about (the greatest answer that holds); if one
// is not, every answer given meanwhile is forgotten, since it may rest on
// the assumption.
bool WritableStorage::isWritablePosition(const CarriedPosition &position) {
  size_t mark = answered.size();
  for (Value value : position.values)
    remember(value, true);
  bool writable = llvm::all_of(position.incoming, [&](OpOperand *passed) {
    Operation *owner = passed->getOwner();
    // Passed twice to one op, two positions would share storage.
    return llvm::count(owner->getOperands(), passed->get()) == 1 &&
           isLastUse(*passed) && isWritable(passed->get());
  });
  if (!writable) {
    for (Value value : ArrayRef(answered).drop_front(mark))
      cache.erase(value);
    answered.truncate(mark);
    for (Value value : position.values)
      remember(value, false);
  }
  return writable;
}

bool WritableStorage::computeWritable(Value resource) {
  if (auto arg = dyn_cast<BlockArgument>(resource))
    return isWritableArgument(arg);
  Operation *def = resource.getDefiningOp();
  if (isa<AsyncAllocaOp, AsyncSplatOp, AsyncCloneOp, AsyncTransferOp,
          AsyncSliceOp>(def))
    return true;
  // A consumed import is the program's own, like a new result: a function
  // of the module hands over the only ownership of what it returns (fresh
  // buffers, never its arguments), and an argument the host handed over is
  // claimed where it enters (a copy when the host kept a share).
  if (auto import = dyn_cast<TensorImportOp>(def))
    return import.getConsume() || isLentForResult(import.getSource());
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
  if (!func)
    return false;
  if (arg.getOwner() != &func.getBody().front())
    return isWritableBranchArgument(arg);
  if (func.isPublic())
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

bool WritableStorage::isWritableBranchArgument(BlockArgument arg) {
  Block *block = arg.getOwner();
  if (block->hasNoPredecessors())
    return false;
  for (auto it = block->pred_begin(), e = block->pred_end(); it != e; ++it) {
    auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
    if (!branch)
      return false;
    SuccessorOperands operands =
        branch.getSuccessorOperands(it.getSuccessorIndex());
    unsigned index = arg.getArgNumber();
    if (index < operands.getProducedOperandCount())
      return false;
    MutableOperandRange forwarded = operands.getMutableForwardedOperands();
    OpOperand &passed = forwarded[index - operands.getProducedOperandCount()];
    // Passed twice to one block, the two arguments would share storage.
    if (llvm::count(forwarded.getAsOperandRange(), passed.get()) != 1 ||
        !isLastUse(passed) || !isWritable(passed.get()))
      return false;
  }
  return true;
}

} // namespace ferry::stream
