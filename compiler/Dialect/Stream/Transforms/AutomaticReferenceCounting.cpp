// Decides who frees each resource of the cmd phase and places its
// deallocation right after its last use. See Passes.td for the rules.
//
// Assumes stream-schedule-allocation's output: one block per function, with
// structured regions (scf.for / scf.while and the branch region ops
// scf.if / scf.index_switch / scf.execute_region, each region one block) that
// carry every resource together with its ready timepoint and end with an
// "everything done" timepoint. Each resource is freed in the block that defines
// it (its home block): an op there whose region uses the resource (an execution
// region's captures, a structured region's body) is one use of it, done at that
// op's last timepoint. A value passed on into a carried position (a loop's
// init, a yield, a while condition) hands its ownership on: the position's
// block arguments and results own it from then on.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/CarriedPositions.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>
#include <map>
#include <set>

namespace ferry::stream {
#define GEN_PASS_DEF_AUTOMATICREFERENCECOUNTINGPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

using namespace carried;

constexpr StringLiteral kNoSideEffectsAttr = "nosideeffects";

// How the program must give up an owned resource.
enum class Disposal {
  Free,         // dealloca after the last use
  ReleaseFirst, // release, then dealloca if that was the last owner
  HandToCaller, // returned: the caller owns it now
  PassedOn,     // passed into a carried position, which owns it now
  // handed out by one branch of an scf.if / scf.index_switch as its result
  // (which owns it then); every other branch frees it at its end
  FreeInOtherBranches,
  Indeterminate, // beyond the analysis: memory goes with the last reference
};

// A use passing on an owned resource as what a position it was lent to
// holds (its block's terminator into a flagged position, an export to the
// caller), and the owned flags of the positions on the way (the member's,
// and those it was lent from): where all are clear, it is the resource.
struct Escape {
  OpOperand *use = nullptr;
  SmallVector<Value> flags;
  // Whether another such use was recorded before (only one is followed).
  bool twice = false;
  void record(OpOperand &at, SmallVector<Value> on) {
    twice |= use != nullptr;
    use = &at;
    flags = std::move(on);
  }
};

// What the analysis learned about one owned resource.
struct Ownership {
  Value resource;
  Value size;
  Disposal disposal = Disposal::Free;
  // The last op of the resource's home block that uses it (itself, or by an
  // op in its regions).
  Operation *lastUser = nullptr;
  // Uses in program order: (position, completion timepoint, writes?).
  SmallVector<std::tuple<size_t, Value, bool>> uses;
  // For FreeInOtherBranches: the op whose branch hands it out.
  Operation *branchOp = nullptr;
  // Whether a structured region op uses it (inside).
  bool usedByRegionOp = false;
  // For a member of a flagged position: the i1 that says whether it holds
  // an owned value; its free is conditional on it.
  Value ownedFlag;
  // Where its block's terminator, or an export, may pass it on as what a
  // position it was lent to holds.
  Escape escape;
};

// Who owns what a carried position holds, decided from everything passed
// into it. A Mixed position gets an i1 "owned" flag carried beside it and is
// Flagged from then on: each value passed in says whether it is owned.
enum class Carried { Unknown, Owned, NotOwned, Mixed, Flagged };

Carried combine(Carried a, Carried b) {
  if (a == Carried::Unknown)
    return b;
  if (b == Carried::Unknown || a == b)
    return a;
  return Carried::Mixed;
}

class FunctionOwnership {
public:
  FunctionOwnership(func::FuncOp func, SymbolTableCollection &symbols)
      : func(func), symbols(symbols), builder(func.getContext()) {}

  void run() {
    findAliasesPassedOn();
    decideCarriedPositions();
    while (dropUnflaggedAliases()) {
      carried.clear();
      decideCarriedPositions();
    }
    addOwnedFlags();
    func.walk([&](Block *block) {
      for (auto [index, op] : llvm::enumerate(*block))
        position[&op] = index;
    });
    SmallVector<Ownership> owned;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<CmdExecuteOp>(op)) {
        collectOwned(op, owned);
        return WalkResult::skip();
      }
      collectOwned(op, owned);
      return WalkResult::advance();
    });
    for (Ownership &ownership : owned)
      analyze(ownership);
    for (Ownership &ownership : owned)
      dispose(ownership);
    copyAliasesPassedOn();
    awaitDeallocations();
  }

private:
  //===------------------------------------------------------------------===//
  // Carried positions
  //===------------------------------------------------------------------===//

  // Every resource position of every structured region op, decided to a
  // fixed point: a position passed into another (a loop nest carrying one
  // accumulator) is owned when the other is. Starts from Unknown (nothing
  // known), so every step only adds knowledge and the loop ends.
  void decideCarriedPositions() {
    SmallVector<Position> positions;
    func.walk([&](Operation *op) {
      if (!isStructuredRegionOp(op))
        return;
      auto addAll = [&](TypeRange types, bool after) {
        for (auto [i, type] : llvm::enumerate(types))
          if (isa<ResourceType>(type))
            positions.push_back({op, after, static_cast<unsigned>(i)});
      };
      if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
        addAll(ValueRange(whileOp.getBeforeArguments()).getTypes(), false);
        addAll(ValueRange(whileOp.getAfterArguments()).getTypes(), true);
      } else {
        addAll(op->getResultTypes(), false);
      }
    });
    for (bool changed = true; changed;) {
      changed = false;
      for (Position position : positions) {
        Carried state = Carried::Unknown;
        for (OpOperand *in : incomingOf(position))
          state = combine(state, incomingState(position, *in));
        Carried &known = carried[key(position)];
        if (known != state) {
          known = state;
          changed = true;
        }
      }
    }
  }

  //===------------------------------------------------------------------===//
  // Owned flags
  //===------------------------------------------------------------------===//

  // Each Mixed position of an scf.for, scf.while, scf.if or scf.index_switch
  // gets an i1 "owned" flag beside it (an iter_arg and a result, a result
  // the branches yield, a while's before-region argument or its
  // after-region argument and result), inserted before the timepoints so
  // the resource positions keep their numbers. Each value passed into the
  // position passes whether it is owned; each member is freed only where
  // its flag is set. So no value is copied to make the position owned, and
  // the common case (a loop updating its carried value in place) costs
  // nothing per iteration but a carried i1. Anything else Mixed stays
  // indeterminate, with a remark.
  void addOwnedFlags() {
    llvm::MapVector<Operation *, SmallVector<Position>> mixed;
    for (auto &[positionKey, state] : carried) {
      auto [op, after, index] = positionKey;
      if (state == Carried::Mixed)
        mixed[op].push_back({op, after, index});
    }
    for (auto &[op, positions] : mixed) {
      if (!isa<scf::ForOp, scf::WhileOp>(op) && !isBranchRegionOp(op)) {
        for (Position position : positions)
          op->emitRemark()
              << describe(position)
              << " is indeterminate: some values passed into it are owned "
                 "by the program and some are not, and no owned flag is "
                 "carried through '"
              << op->getName() << "'";
        continue;
      }
      // The flagged indices of each list of positions: a while's before
      // region's and after region's; the only one of any other op.
      SmallVector<unsigned> indices[2];
      for (Position position : positions)
        indices[position.after].push_back(position.index);
      llvm::sort(indices[0]);
      llvm::sort(indices[1]);
      FailureOr<std::pair<Operation *, std::array<unsigned, 2>>> flagged =
          withOwnedFlags(builder, op, indices[0].size(), indices[1].size(),
                         placeholders);
      if (failed(flagged)) {
        for (Position position : positions)
          op->emitRemark() << describe(position)
                           << " is indeterminate: some values passed into it "
                              "are owned by the program and some are not, and "
                              "the op does not end with its timepoints";
        continue;
      }
      auto [newOp, firstFlag] = *flagged;
      // Every position of the op is known under the new op now.
      for (auto it = carried.begin(); it != carried.end();) {
        auto [positionOp, after, index] = it->first;
        if (positionOp != op) {
          ++it;
          continue;
        }
        Carried state = it->second;
        it = carried.erase(it);
        carried[key({newOp, after, index})] = state;
      }
      for (bool after : {false, true}) {
        for (auto [rank, index] : llvm::enumerate(indices[after])) {
          carried[key({newOp, after, index})] = Carried::Flagged;
          flagSlots[key({newOp, after, index})] = firstFlag[after] + rank;
        }
      }
    }
    for (auto &[positionKey, slot] : flagSlots) {
      auto [op, after, index] = positionKey;
      Position position{op, after, index};
      for (OpOperand *in : incomingOf(position)) {
        Operation *owner = in->getOwner();
        owner->getOpOperand(in->getOperandNumber() - index + slot)
            .set(flagValue(position, *in));
      }
    }
    for (Operation *placeholder : placeholders)
      if (placeholder->use_empty())
        placeholder->erase();
  }

  // The flag `in` passes into flagged `position`: that of the position the
  // value comes from where it is one's member, else whether it is owned.
  Value flagValue(Position position, OpOperand &in) {
    Carried state = incomingState(position, in);
    if (state == Carried::Unknown || state == Carried::Flagged)
      if (Value flag = flagOf(in.get()))
        return flag;
    builder.setInsertionPoint(in.getOwner());
    return arith::ConstantIntOp::create(builder, in.getOwner()->getLoc(),
                                        state == Carried::Owned ? 1 : 0, 1);
  }

  // The owned flag of `value`, a member of a flagged position; else null.
  Value flagOf(Value value) {
    std::optional<Position> from = positionOf(value);
    if (!from)
      return {};
    auto it = flagSlots.find(key(*from));
    if (it == flagSlots.end())
      return {};
    if (auto result = dyn_cast<OpResult>(value))
      return result.getOwner()->getResult(it->second);
    auto arg = cast<BlockArgument>(value);
    unsigned offset = 0;
    if (auto forOp = dyn_cast<scf::ForOp>(from->op))
      offset = forOp.getNumInductionVars();
    return arg.getOwner()->getArgument(offset + it->second);
  }

  Carried stateOf(Position position) const {
    auto it = carried.find(key(position));
    return it == carried.end() ? Carried::Unknown : it->second;
  }

  // Whether `in` hands ownership of an owned value into `position`.
  Carried incomingState(Position position, OpOperand &in) {
    // A call result written into an operand in place is that operand's
    // storage: what is passed is the operand (a loop body writing its
    // iter_arg by a call and yielding the result passes it through).
    Value value = storageOf(in.get());
    std::optional<Position> from = positionOf(value);
    if (from && *from == position)
      return Carried::Unknown; // passed through unchanged
    Operation *passing = in.getOwner();
    // A value from outside the passing block is used again (a loop's next
    // iteration, or after the region): the program still owns it there;
    // unless a branch hands it out, nothing after the branching op using it.
    if (value.getParentBlock() != passing->getBlock() && !handingOutOp(in))
      return Carried::NotOwned;
    if (llvm::count_if(passing->getOperands(), [&](Value passed) {
          return storageOf(passed) == value;
        }) > 1)
      return Carried::NotOwned;
    // An init used after the loop, or read inside it too (captured), is
    // still needed where the position may already have freed it.
    if (isStructuredRegionOp(passing) &&
        (usedAfter(value, passing) || capturedBy(value, passing)))
      return Carried::NotOwned;
    // So is one lent to a region op before, whose result (which may be it)
    // is used there or after.
    std::set<PositionKey> seen;
    SmallVector<unsigned> copied;
    if (lentAliasUsed(value, passing, seen,
                      aliasCopyOf(in) ? &copied : nullptr))
      return Carried::NotOwned;
    if (from)
      return stateOf(*from);
    return isOwnedOrigin(value) ? Carried::Owned : Carried::NotOwned;
  }

  // The branch region op (`scf.if`, `scf.index_switch`) one of whose branches
  // `use` (its yield) hands out a value made before the op, as its last use:
  // nothing after the op uses the value, `use`'s branch hands it out at no
  // other position, and no branch hands it out as what an op nested in it
  // holds. Other branches may hand it out too, each at a position of its
  // own. The position then owns it, and the branches that do not hand it
  // out free it. Null for any other use.
  Operation *handingOutOp(OpOperand &use) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    Operation *op = yield ? yield->getParentOp() : nullptr;
    // (Yielded as the value, or as a call result written into it.)
    Value value = storageOf(use.get());
    if (!op || !isBranchRegionOp(op) || op->getNumRegions() < 2 ||
        value.getParentBlock() != op->getBlock() || usedAfter(value, op))
      return nullptr;
    std::set<PositionKey> seen;
    if (yieldedElsewhere(value, op, use, seen))
      return nullptr;
    return op;
  }

  // Whether a branch of `op` yields `value` other than by `except` or by
  // another branch's terminator (where that branch hands it out too): at
  // another position of `except`'s branch, or as what an op nested in a
  // branch holds that `value` was passed into
  // (an inner scf.if or loop that may hand back the captured value, written
  // in place), or under another name (aliasesThrough). A branch that seems
  // to yield something else may yield the value then, so it must not free
  // it.
  bool yieldedElsewhere(Value value, Operation *op, OpOperand &except,
                        std::set<PositionKey> &seen) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (&use == &except || !op->isProperAncestor(user))
        continue;
      if (user->getParentOp() == op &&
          user->hasTrait<OpTrait::IsTerminator>()) {
        // Another branch may hand it out at any position (it is owned
        // there too); the same branch only once.
        if (storageOf(value) != storageOf(except.get()) ||
            user == except.getOwner())
          return true;
        continue;
      }
      for (Value alias : aliasesThrough(use))
        if (yieldedElsewhere(alias, op, except, seen))
          return true;
      std::optional<Position> to = passedTo(use);
      if (!to || !seen.insert(key(*to)).second)
        continue;
      for (Value member : membersOf(*to))
        if (yieldedElsewhere(member, op, except, seen))
          return true;
    }
    return false;
  }

  // Whether something after `op` in its block uses `value` (itself, or by
  // an op in its regions, or under another name: aliasesThrough).
  bool usedAfter(Value value, Operation *op) {
    Block *block = op->getBlock();
    for (OpOperand &use : value.getUses()) {
      Operation *anchor = block->findAncestorOpInBlock(*use.getOwner());
      if (anchor && anchor != op && op->isBeforeInBlock(anchor))
        return true;
      for (Value alias : aliasesThrough(use))
        if (usedAfter(alias, op))
          return true;
    }
    return false;
  }

  // Whether `value` was lent to a region op before `passing` (of its block,
  // or nested in an op of it) whose result, which may hold `value` (a loop
  // that ran no iteration, a branch that yielded it), `passing` or an op
  // after it uses (followed through what that result is lent to in turn:
  // a while's before-region argument an scf.if yields to its condition is
  // the while's result): `value` is still needed there under another name.
  // Given `passedAliases`, a result `passing` passes on is not such a use
  // but goes there (the numbers of its operands).
  bool lentAliasUsed(Value value, Operation *passing,
                     std::set<PositionKey> &seen,
                     SmallVectorImpl<unsigned> *passedAliases = nullptr) {
    Block *block = passing->getBlock();
    for (OpOperand &use : value.getUses()) {
      std::optional<Position> to = passedTo(use);
      if (!to || !seen.insert(key(*to)).second)
        continue;
      Operation *anchor = block->findAncestorOpInBlock(*to->op);
      if (!anchor || anchor == passing || !anchor->isBeforeInBlock(passing))
        continue;
      for (Value member : membersOf(*to)) {
        if (usedAfter(member, passing) || capturedBy(member, passing) ||
            lentAliasUsed(member, passing, seen, passedAliases))
          return true;
        for (OpOperand &passed : passing->getOpOperands()) {
          if (passed.get() != member)
            continue;
          if (!passedAliases)
            return true;
          passedAliases->push_back(passed.getOperandNumber());
        }
      }
    }
    return false;
  }

  // Whether an op in `op`'s regions uses `value` (or a name of it made
  // before `op`: aliasesThrough).
  static bool capturedBy(Value value, Operation *op) {
    return llvm::any_of(value.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (user != op && op->isAncestor(user))
        return true;
      return llvm::any_of(aliasesThrough(use),
                          [&](Value alias) { return capturedBy(alias, op); });
    });
  }

  static Value awaitedValue(TimepointAwaitOp await, OpOperand &use) {
    unsigned index = use.getOperandNumber() -
                     await.getResourceOperands().getBeginOperandIndex();
    return await.getResults()[index];
  }

  // The other names `use` gives the resource it uses, which hold the same
  // storage from then on: the value a host await yields for it, and the
  // results of a call written into it in place (tied). Their uses are the
  // resource's uses.
  static SmallVector<Value> aliasesThrough(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto await = dyn_cast<TimepointAwaitOp>(user))
      return {awaitedValue(await, use)};
    SmallVector<Value> aliases;
    if (auto call = dyn_cast<CmdCallOp>(user))
      llvm::append_range(aliases,
                         cast<TiedOpInterface>(*call).getTiedResults(use));
    return aliases;
  }

  // The storage `value` names: the operand a call result was written into
  // in place, followed to a value that is no such result.
  static Value storageOf(Value value) {
    while (auto result = dyn_cast<OpResult>(value)) {
      auto call = dyn_cast<CmdCallOp>(result.getOwner());
      OpOperand *tied =
          call ? call.getTiedOperand(result.getResultNumber()) : nullptr;
      if (!tied)
        break;
      value = tied->get();
    }
    return value;
  }

  // The value that made the storage `value` names, through all its other
  // names (host awaits' results, call results written in place).
  static Value originOf(Value value) {
    for (value = storageOf(value);
         auto await = value.getDefiningOp<TimepointAwaitOp>();
         value = storageOf(value))
      value =
          await.getResourceOperands()[cast<OpResult>(value).getResultNumber()];
    return value;
  }

  // Whether the program owns `value` where it is made: an allocation, a
  // new result of an external call, a consumed import (or such a value a
  // host await yields, or a call wrote into in place).
  static bool isOwnedOrigin(Value value) {
    Operation *def = originOf(value).getDefiningOp();
    if (auto alloca = dyn_cast_or_null<ResourceAllocaOp>(def))
      return !alloca.getIndeterminate();
    if (auto importOp = dyn_cast_or_null<TensorImportOp>(def))
      return importOp.getConsume();
    return isa_and_nonnull<CmdCallOp>(def);
  }

  //===------------------------------------------------------------------===//
  // Values passed on beside what may be them
  //===------------------------------------------------------------------===//

  // A terminator may pass on a value at one position and, at others, what
  // positions it was lent to hold, which may be the value itself (a loop
  // that ran no iteration returns its init; a branch yields it unchanged).
  // Which position holds it last depends on the run, so no position could
  // own it. Instead the value's position owns it, and each other position
  // gets a copy where what it gets is not owned while the value is
  // (copyAliasesPassedOn): one copy in the runs that alias, none in the
  // others. Operand numbers of `terminator` (owned flags go after every
  // carried value, so they keep their numbers).
  struct AliasCopy {
    Operation *terminator;
    unsigned value;
    SmallVector<unsigned> aliases;
  };

  // Each value a terminator of an op that can carry owned flags passes on,
  // made in the terminator's block, whose only use after the terminator
  // under another name is what the terminator passes on. Where two of them
  // meet (an alias that may be either, a value that is another's alias), they
  // are left as they were.
  void findAliasesPassedOn() {
    func.walk([&](Operation *terminator) {
      if (!isa<scf::YieldOp, scf::ConditionOp>(terminator) ||
          !canCarryFlags(terminator->getParentOp()))
        return;
      SmallVector<AliasCopy> found;
      llvm::DenseMap<unsigned, unsigned> uses;
      for (OpOperand &in : terminator->getOpOperands()) {
        Value value = storageOf(in.get());
        if (!isa<ResourceType>(value.getType()) || !passedTo(in) ||
            value.getParentBlock() != terminator->getBlock())
          continue;
        AliasCopy copy{terminator, in.getOperandNumber(), {}};
        std::set<PositionKey> seen;
        if (lentAliasUsed(value, terminator, seen, &copy.aliases) ||
            copy.aliases.empty())
          continue;
        llvm::sort(copy.aliases);
        copy.aliases.erase(llvm::unique(copy.aliases), copy.aliases.end());
        ++uses[copy.value];
        for (unsigned alias : copy.aliases)
          ++uses[alias];
        found.push_back(std::move(copy));
      }
      for (AliasCopy &copy : found)
        if (uses[copy.value] == 1 &&
            llvm::all_of(copy.aliases,
                         [&](unsigned alias) { return uses[alias] == 1; }))
          aliasCopies.push_back(std::move(copy));
    });
  }

  // Drops each AliasCopy one of whose aliases goes to a position that will
  // carry no owned flag (it could not own the copy). Returns whether one
  // was dropped.
  bool dropUnflaggedAliases() {
    size_t count = aliasCopies.size();
    llvm::erase_if(aliasCopies, [&](const AliasCopy &copy) {
      return llvm::any_of(copy.aliases, [&](unsigned alias) {
        OpOperand &use = copy.terminator->getOpOperand(alias);
        return stateOf(*passedTo(use)) != Carried::Mixed;
      });
    });
    return aliasCopies.size() != count;
  }

  const AliasCopy *aliasCopyOf(OpOperand &in) const {
    for (const AliasCopy &copy : aliasCopies)
      if (copy.terminator == in.getOwner() &&
          copy.value == in.getOperandNumber())
        return &copy;
    return nullptr;
  }

  // Whether `use` passes on an alias of `root` that is copied where it may
  // be `root`.
  bool isCopiedAlias(OpOperand &use, Value root) const {
    return llvm::any_of(aliasCopies, [&](const AliasCopy &copy) {
      return copy.terminator == use.getOwner() &&
             llvm::is_contained(copy.aliases, use.getOperandNumber()) &&
             originOf(copy.terminator->getOperand(copy.value)) ==
                 originOf(root);
    });
  }

  // Whether what `in` passes into its position is owned there: the
  // position's owned flag it passes, or true where the position owns
  // everything; null where it never is.
  Value ownedFlagPassedBy(OpOperand &in) {
    Position to = *passedTo(in);
    Operation *terminator = in.getOwner();
    if (auto slot = flagSlots.find(key(to)); slot != flagSlots.end()) {
      Value flag = terminator->getOperand(in.getOperandNumber() - to.index +
                                          slot->second);
      return matchPattern(flag, m_Zero()) ? Value() : flag;
    }
    if (stateOf(to) != Carried::Owned)
      return {};
    builder.setInsertionPoint(terminator);
    return arith::ConstantIntOp::create(builder, terminator->getLoc(), 1, 1);
  }

  void copyAliasesPassedOn() {
    for (const AliasCopy &copy : aliasCopies) {
      OpOperand &in = copy.terminator->getOpOperand(copy.value);
      Value owned = ownedFlagPassedBy(in);
      OpOperand *ready = readyOperandOf(in);
      if (!owned || !ready)
        continue;
      for (unsigned alias : copy.aliases)
        copyWhereUnowned(copy.terminator->getOpOperand(alias), owned, *ready);
    }
  }

  // Passes on, in place of what `alias` passes on, a copy of it where its
  // owned flag is clear while `owned` (the value's) is set: its position
  // owns what it gets then. The value's ready timepoint, `valueReady`, and
  // the terminator's "everything done" one wait for the copy too, so the
  // value is not freed or written before the copy has read it.
  void copyWhereUnowned(OpOperand &alias, Value owned, OpOperand &valueReady) {
    Operation *terminator = alias.getOwner();
    Position to = *passedTo(alias);
    auto slot = flagSlots.find(key(to));
    OpOperand *ready = readyOperandOf(alias);
    if (slot == flagSlots.end() || !ready)
      return; // cannot be: dropUnflaggedAliases kept flagged positions only
    OpOperand &flag = terminator->getOpOperand(alias.getOperandNumber() -
                                               to.index + slot->second);
    Location loc = terminator->getLoc();
    Type timepoint = TimepointType::get(func.getContext());
    Value resource = alias.get();
    builder.setInsertionPoint(terminator);
    Value notOwned =
        arith::XOrIOp::create(builder, loc, flag.get(),
                              arith::ConstantIntOp::create(builder, loc, 1, 1));
    auto ifOp = scf::IfOp::create(
        builder, loc, TypeRange{resource.getType(), timepoint, timepoint},
        arith::AndIOp::create(builder, loc, notOwned, owned),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      Value size = ResourceSizeOp::create(builder, loc, builder.getIndexType(),
                                          resource);
      auto alloca = ResourceAllocaOp::create(builder, loc, resource.getType(),
                                             timepoint, Value(), size);
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      auto copy = CmdCopyOp::create(
          builder, loc, timepoint, resource, size, zero, alloca.getResult(),
          size, zero, size,
          joinTimepoints(builder, loc,
                         {alloca.getResultTimepoint(), ready->get()}));
      // Made where what is copied lives.
      AffinityAttr affinity = getEnclosingAffinity(resource);
      setAffinity(alloca, affinity);
      setAffinity(copy, affinity);
      Value copied = copy.getResultTimepoint();
      scf::YieldOp::create(
          builder, loc,
          ValueRange{alloca.getResult(), copied,
                     joinTimepoints(builder, loc, {valueReady.get(), copied})});
      builder.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          builder, loc, ValueRange{resource, ready->get(), valueReady.get()});
    }
    alias.set(ifOp.getResult(0));
    ready->set(ifOp.getResult(1));
    valueReady.set(ifOp.getResult(2));
    flag.set(arith::OrIOp::create(builder, loc, flag.get(), owned));
    OpOperand &done = terminator->getOpOperands().back();
    done.set(joinTimepoints(builder, loc, {done.get(), ifOp.getResult(2)}));
  }

  //===------------------------------------------------------------------===//
  // Owned resources
  //===------------------------------------------------------------------===//

  // Resources `op` makes the program responsible for freeing.
  void collectOwned(Operation *op, SmallVectorImpl<Ownership> &owned) {
    auto add = [&](Value resource, Value size, Disposal disposal,
                   Value ownedFlag = {}) {
      if (isDisposed(resource))
        return;
      Ownership &ownership = owned.emplace_back();
      ownership.resource = resource;
      ownership.size = size;
      ownership.disposal = disposal;
      ownership.ownedFlag = ownedFlag;
    };
    if (auto alloca = dyn_cast<ResourceAllocaOp>(op)) {
      if (!alloca.getIndeterminate())
        add(alloca.getResult(), alloca.getStorageSize(), Disposal::Free);
    } else if (auto importOp = dyn_cast<TensorImportOp>(op)) {
      if (importOp.getConsume())
        add(importOp.getResult(), importOp.getResultSize(),
            Disposal::ReleaseFirst);
    } else if (auto call = dyn_cast<CmdCallOp>(op)) {
      for (auto [i, result, size] :
           llvm::enumerate(call.getResults(), call.getResultSizes()))
        if (!call.getTiedOperand(i))
          add(result, size, Disposal::Free);
    } else if (isStructuredRegionOp(op)) {
      // Members of owned positions: each block argument is freed in its
      // body, each result after the op. Their size is what the memory was
      // allocated with.
      for (auto [positionKey, state] : carried) {
        auto [positionOp, after, index] = positionKey;
        if (positionOp != op ||
            (state != Carried::Owned && state != Carried::Flagged))
          continue;
        for (Value member : membersOf({op, after, index}))
          add(member, /*size=*/Value(), Disposal::Free, flagOf(member));
      }
    }
  }

  // Whether the program already gives up its ownership of `resource`
  // (a dealloca or a release is written, by this pass on an earlier run or
  // by hand): adding another would free or release it twice.
  static bool isDisposed(Value resource) {
    for (OpOperand &use : resource.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ResourceDeallocaOp, ResourceReleaseOp>(user))
        return true;
      if (llvm::any_of(aliasesThrough(use), isDisposed))
        return true;
    }
    return false;
  }

  // An external callee may keep what it is given unless it promises to
  // have no side effects.
  bool mayKeepArguments(CmdCallOp call) {
    auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return !callee || !callee->hasAttr(kNoSideEffectsAttr);
  }

  static bool isFollowedUser(Operation *user) {
    return isa<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
               CmdCallOp, CmdExecuteOp, TensorExportOp, ResourceLoadOp,
               ResourceRetainOp, ResourceReleaseOp, ResourceIsTerminalOp,
               ResourceDeallocaOp, ResourceSizeOp, TimepointAwaitOp>(user);
  }

  // What one use of an owned resource means for it.
  struct Use {
    // The op of the resource's home block doing it (the user itself, or the
    // op whose region holds the user).
    Operation *anchor;
    OpOperand &operand;
    // By a member of a position the resource was lent to, which may hold
    // another value: its write says nothing about the resource's earlier
    // uses.
    bool lent;
  };

  // How an owned resource goes into owned positions: passed directly (a
  // loop's init, its block's terminator), handed out by a branch of an op of
  // its block, or yielded on by its block's terminator as what a position it
  // was lent to holds (see escapes).
  struct HandOff {
    // The owned resource followed.
    Value root;
    bool passedOn = false;
    Operation *branchOp = nullptr;
    // The terminator's operand that passes on a member of a position the
    // root was lent to.
    Escape escape;
    // The same for an export of such a member to the caller: the escape
    // where nothing else passes the root on (else the caller gets it).
    Escape exportEscape;
  };

  // Visits every use of `resource` in its home block `home`, following its
  // other names (aliasesThrough: what host awaits yield for it, call results
  // written into it in place) and the values of positions it is lent to.
  // Records in `handOff` a use handing it into an owned position. Returns
  // false if a use is beyond the analysis (a remark says why where a
  // region is the reason). `lent`: `resource` is a member of a position the
  // owned resource was lent to, whose uses count as the owned resource's.
  bool forEachUse(Value resource, Block *home, HandOff &handOff,
                  function_ref<void(const Use &)> fn, bool lent = false) {
    for (OpOperand &use : resource.getUses()) {
      Operation *user = use.getOwner();
      Operation *anchor = home->findAncestorOpInBlock(*user);
      if (!anchor)
        return false;
      if (anchor != user) {
        // Every op between the user and the home block must be a
        // structured region op with single-block regions, whose last result
        // says when everything it did is done.
        for (Operation *parent = user->getParentOp();;
             parent = parent->getParentOp()) {
          if (!isStructuredRegionOp(parent) ||
              !llvm::all_of(parent->getRegions(), [](Region &region) {
                return region.empty() || region.hasOneBlock();
              })) {
            if (isStructuredRegionOp(anchor))
              parent->emitRemark()
                  << "resource used inside '" << parent->getName()
                  << "' is indeterminate: only structured regions of one "
                     "block each are followed";
            return false;
          }
          if (parent == anchor)
            break;
        }
      }
      if (std::optional<Position> to = passedTo(use)) {
        // Passed by an op of the home block (a loop's init, the block's
        // terminator), or from a region nested in it (then it is captured,
        // never handed on).
        bool direct = anchor == user;
        if (lent && direct && isCopiedAlias(use, handOff.root))
          continue; // a copy goes on where it may be the root
        Carried state = stateOf(*to);
        if (state == Carried::Flagged) {
          // Passed with its flag set (it is owned here): handed on as to an
          // owned position. Passed with it clear: lent.
          if (!lent && incomingState(*to, use) != Carried::NotOwned) {
            if (direct) {
              handOff.passedOn = true;
              continue;
            }
            if (handingOutOp(use) == anchor) {
              handOff.branchOp = anchor;
              continue;
            }
            return false;
          }
        } else if (state == Carried::Owned && direct) {
          handOff.passedOn = true; // the position frees it now
          continue;
        } else if (state == Carried::Owned && handingOutOp(use) == anchor) {
          handOff.branchOp = anchor; // the other branches free it
          continue;
        } else if (state == Carried::Owned || state == Carried::Mixed) {
          return false; // said by the position's remark
        }
        // Lent: what the position holds is this resource still, and is used
        // as it. A terminator of the home block lends it beyond the home.
        if (direct && isa<scf::YieldOp, scf::ConditionOp>(user)) {
          if (lent && state == Carried::Flagged && escapes(use, home, handOff))
            continue;
          user->emitRemark()
              << "resource passed on by '" << user->getName()
              << "' is indeterminate: " << describe(*to)
              << " does not own it, and it lives on after this block";
          return false;
        }
        if (!followPosition(*to, home, handOff, fn))
          return false;
      } else if (!isFollowedUser(user) && !isStructuredRegionOp(user)) {
        if (anchor != user)
          user->emitRemark() << "resource used inside '" << anchor->getName()
                             << "' is indeterminate: its use by '"
                             << user->getName() << "' is not followed";
        return false;
      }
      // Handed to the caller as what a position it was lent to holds: the
      // root goes with it only where that position holds it.
      if (lent && anchor == user && exportsToCaller(user)) {
        if (std::optional<SmallVector<Value>> flags =
                flagsWhereRootIs(use.get(), home, handOff.root)) {
          handOff.exportEscape.record(use, std::move(*flags));
          continue;
        }
      }
      // A structured region op is done with the resource when everything
      // it issued is.
      if (isStructuredRegionOp(anchor) && !doneTimepointOf(anchor)) {
        anchor->emitRemark()
            << "resource used inside '" << anchor->getName()
            << "' is indeterminate: the op has no \"everything done\" "
               "timepoint result to order its free on";
        return false;
      }
      fn({anchor, use, lent});
      for (Value alias : aliasesThrough(use))
        if (!forEachUse(alias, home, handOff, fn, lent))
          return false;
    }
    return true;
  }

  // Whether `use`, by the terminator of `home` into a flagged position, of
  // a member of a position the owned root was lent to, can pass the root on
  // under the flag: the member is a result of an op of `home` whose position
  // holds nothing unowned but the root, directly or as what positions it was
  // lent from hold (where their flags are all clear, it is the root). The
  // terminator then passes the root's ownership where those flags are
  // clear, and the root is freed where one is set. Records it in `handOff`;
  // one such use only.
  bool escapes(OpOperand &use, Block *home, HandOff &handOff) {
    std::optional<SmallVector<Value>> flags =
        flagsWhereRootIs(use.get(), home, handOff.root);
    if (!flags)
      return false;
    handOff.escape.record(use, std::move(*flags));
    return true;
  }

  // Where `value` is a member of a position (a result of an op of `home`)
  // that holds nothing unowned but `root`, directly or through positions
  // it was lent from: the owned flags that, all clear, say it is the root.
  // Else none.
  std::optional<SmallVector<Value>> flagsWhereRootIs(Value value, Block *home,
                                                     Value root) {
    auto member = dyn_cast<OpResult>(originOf(value));
    if (!member || member.getOwner()->getBlock() != home)
      return std::nullopt;
    std::optional<Position> from = positionOf(member);
    std::set<PositionKey> seen;
    SmallVector<Value> flags;
    if (Value flag = flagOf(member))
      flags.push_back(flag);
    if (!from || !holdsUnownedOnly(*from, root, home, seen, flags))
      return std::nullopt;
    return flags;
  }

  // Whether every value `position` may hold that the program does not own
  // there is `root` (passed in lent, or as what another such position
  // holds). A member of a flagged position of `home` passed in lent (its
  // flag not passed beside it) is the root only where that flag is clear:
  // the flag is added to `flags`.
  bool holdsUnownedOnly(Position position, Value root, Block *home,
                        std::set<PositionKey> &seen,
                        SmallVector<Value> &flags) {
    Carried state = stateOf(position);
    if (state != Carried::NotOwned && state != Carried::Flagged)
      return false;
    if (!seen.insert(key(position)).second)
      return true;
    for (OpOperand *in : incomingOf(position)) {
      Value value = in->get();
      std::optional<Position> from = positionOf(value);
      if (from && *from == position)
        continue; // passed through unchanged
      Carried passed = incomingState(position, *in);
      if (passed == Carried::Owned || originOf(value) == root)
        continue;
      // Another position's member: what it holds, unowned there, is the
      // root (its flag, passed on, is clear then; passed in lent, it is the
      // root where its own flag is clear).
      if (!from)
        return false;
      bool passesFlag = passed == Carried::Flagged && flagOf(value);
      if (!passesFlag && stateOf(*from) != Carried::NotOwned) {
        Value flag = flagOf(value);
        if (!flag || flag.getParentBlock() != home)
          return false;
        flags.push_back(flag);
      }
      if (!holdsUnownedOnly(*from, root, home, seen, flags))
        return false;
    }
    return true;
  }

  bool followPosition(Position position, Block *home, HandOff &handOff,
                      function_ref<void(const Use &)> fn) {
    if (!followed.insert(key(position)).second)
      return true;
    if (!home->findAncestorOpInBlock(*position.op))
      return false;
    for (Value member : membersOf(position)) {
      if (!forEachUse(member, home, handOff, fn, /*lent=*/true))
        return false;
    }
    return true;
  }

  void analyze(Ownership &ownership) {
    bool exported = false, mayBeKept = false, retained = false;
    Operation *lentExport = nullptr;
    HandOff handOff;
    handOff.root = ownership.resource;
    followed.clear();
    Block *home = ownership.resource.getParentBlock();
    bool isFollowed =
        forEachUse(ownership.resource, home, handOff, [&](const Use &use) {
          Operation *user = use.operand.getOwner();
          Operation *anchor = use.anchor;
          // A view only passed to calls is lent, not handed over: the callee
          // imports it without ownership and is done with it when it
          // returns.
          bool lent = false;
          if (auto exportOp = dyn_cast<TensorExportOp>(user))
            if (Operation *call = lastLendingCall(exportOp)) {
              lent = true;
              if (anchor == user)
                anchor = call;
            }
          if (!ownership.lastUser ||
              position.lookup(anchor) > position.lookup(ownership.lastUser))
            ownership.lastUser = anchor;
          if (Value done = completionOf(anchor))
            ownership.uses.push_back(
                {position.lookup(anchor), done,
                 anchor == user && !use.lent && writes(use.operand)});
          ownership.usedByRegionOp |= isStructuredRegionOp(anchor);
          if (isa<TensorExportOp>(user) && (anchor == user || !lent)) {
            // (As what a position it was lent to holds where escapes could
            // not say when that is the resource: see below.)
            if (use.lent && anchor == user)
              lentExport = user;
            else
              exported = true;
          }
          if (auto call = dyn_cast<CmdCallOp>(user))
            mayBeKept |= mayKeepArguments(call);
          // A retain makes another owner, who will release that share: the
          // program may give up only its own.
          retained |= isa<ResourceRetainOp>(user);
        });
    mayBeKept |= retained;
    if (handOff.exportEscape.use) {
      if (handOff.exportEscape.twice || handOff.escape.use ||
          handOff.passedOn || handOff.branchOp || exported || retained ||
          lentExport)
        exported = true;
      else
        handOff.escape = handOff.exportEscape;
    }
    // Handed to the caller only where a position holds it, and nothing
    // says where: on the other ways nothing would free it.
    if (isFollowed && lentExport && !exported && !handOff.passedOn &&
        !handOff.branchOp && !handOff.escape.use) {
      lentExport->emitRemark()
          << "resource returned to the caller is indeterminate: it may be "
             "what a position it was lent to holds, and that position may "
             "hold another value the program does not own there";
      isFollowed = false;
    }
    exported |= lentExport != nullptr;
    // (A callee that may keep the resource holds a reference, not an owner:
    // the root may still be passed on under the flag, as it may be passed
    // on directly.)
    if (isFollowed && handOff.escape.use &&
        (handOff.escape.twice || handOff.passedOn || handOff.branchOp ||
         exported || retained)) {
      Operation *passing = handOff.escape.use->getOwner();
      passing->emitRemark()
          << "resource passed on by '" << passing->getName()
          << "' is indeterminate: it may be what a position it was lent to "
             "holds, and it is passed on or kept elsewhere too";
      isFollowed = false;
    }
    ownership.escape = handOff.escape;
    if (!isFollowed)
      ownership.disposal = Disposal::Indeterminate;
    else if (handOff.passedOn)
      ownership.disposal = Disposal::PassedOn;
    else if ((ownership.branchOp = handOff.branchOp))
      ownership.disposal = Disposal::FreeInOtherBranches;
    else if (exported)
      ownership.disposal = Disposal::HandToCaller;
    else if (mayBeKept)
      ownership.disposal = Disposal::ReleaseFirst;
  }

  // An export handing the resource to the function's caller (not one only
  // lent to calls).
  bool exportsToCaller(Operation *user) {
    auto exportOp = dyn_cast<TensorExportOp>(user);
    return exportOp && !lastLendingCall(exportOp);
  }

  // The last func.call (a call of a function of this module, which takes
  // buffer views like the host does) using `exportOp`'s view, when such calls
  // in this block are all that use it; else null.
  Operation *lastLendingCall(TensorExportOp exportOp) {
    Operation *last = nullptr;
    for (Operation *user : exportOp.getResult().getUsers()) {
      if (!isa<func::CallOp>(user) || user->getBlock() != exportOp->getBlock())
        return nullptr;
      if (!last || position.lookup(user) > position.lookup(last))
        last = user;
    }
    return last;
  }

  // The timepoint at which `user` is done with what it reads; null when it
  // completed on the host already. An execution region or a structured
  // region op is one user: done when the last thing it issued is.
  static Value completionOf(Operation *user) {
    if (isStructuredRegionOp(user))
      return doneTimepointOf(user);
    return TypeSwitch<Operation *, Value>(user)
        .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
              CmdCallOp, CmdExecuteOp>(
            [](auto op) { return op.getResultTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // What `user` waited for before it ran.
  static Value awaitOf(Operation *user) {
    return TypeSwitch<Operation *, Value>(user)
        .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp,
              CmdCallOp, CmdExecuteOp>(
            [](auto op) { return op.getAwaitTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // When `resource` exists: its allocation's or producing call's timepoint,
  // a carried value's ready timepoint (null for an import, which exists
  // already).
  static Value existsAt(Value resource) {
    if (positionOf(resource))
      return readyTimepointOf(resource);
    return TypeSwitch<Operation *, Value>(resource.getDefiningOp())
        .Case<ResourceAllocaOp, CmdCallOp>(
            [](auto op) { return op.getResultTimepoint(); })
        .Default([](Operation *) { return Value(); });
  }

  // Whether `use` writes the resource (an op's output, a fill or copy
  // target, a call's tied operand) rather than only reading it.
  static bool writes(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto dispatch = dyn_cast<CmdDispatchOp>(user))
      return use.get() == dispatch.getOutput() &&
             use.getOperandNumber() + 1 ==
                 dispatch.getResourceOperands().getBeginOperandIndex() +
                     dispatch.getResourceOperands().size();
    if (auto entry = dyn_cast<CmdDispatchEntryOp>(user))
      return use.getOperandNumber() ==
             entry.getResourceOperands().getBeginOperandIndex() +
                 entry.getOutputIndex();
    if (auto fill = dyn_cast<CmdFillOp>(user))
      return &use == &fill.getTargetMutable();
    if (auto copy = dyn_cast<CmdCopyOp>(user))
      return &use == &copy.getTargetMutable();
    if (auto call = dyn_cast<CmdCallOp>(user))
      return cast<TiedOpInterface>(user).isOperandTied(use);
    if (auto execute = dyn_cast<CmdExecuteOp>(user))
      return execute.writesCapture(
          use.getOperandNumber() -
          execute.getResourceOperands().getBeginOperandIndex());
    return false;
  }

  // What the memory must wait for before it goes: the last write (which
  // itself waited for every earlier use) and every use after it. Uses the
  // last user already waited for (directly or in the join it awaited) are
  // covered by waiting for the last user.
  static SmallVector<Value> pendingUses(const Ownership &ownership) {
    auto uses = ownership.uses;
    llvm::stable_sort(uses, [](const auto &a, const auto &b) {
      return std::get<0>(a) < std::get<0>(b);
    });
    SmallVector<Value> completions;
    for (auto &[position, done, isWrite] : uses) {
      if (isWrite)
        completions.clear();
      completions.push_back(done);
    }
    return uncovered(completions, ownership.lastUser);
  }

  static SmallVector<Value> uncovered(ArrayRef<Value> completions,
                                      Operation *lastUser) {
    llvm::SmallPtrSet<Value, 8> covered;
    if (Value await = awaitOf(lastUser)) {
      covered.insert(await);
      if (auto join = await.getDefiningOp<TimepointJoinOp>())
        covered.insert(join.getAwaitTimepoints().begin(),
                       join.getAwaitTimepoints().end());
    }
    SmallVector<Value> result;
    for (Value completion : completions)
      if (!covered.contains(completion))
        result.push_back(completion);
    return result;
  }

  void dispose(const Ownership &ownership) {
    Location loc = ownership.resource.getLoc();
    switch (ownership.disposal) {
    case Disposal::HandToCaller:
    case Disposal::PassedOn:
      return;
    case Disposal::Indeterminate:
      if (auto alloca = ownership.resource.getDefiningOp<ResourceAllocaOp>())
        alloca.setIndeterminate(true);
      return;
    case Disposal::FreeInOtherBranches:
      freeInOtherBranches(ownership);
      return;
    case Disposal::Free:
    case Disposal::ReleaseFirst:
      break;
    }
    // A resource no device work uses (unused, or used only by host ops such
    // as retain) is freed once it exists.
    Operation *def = ownership.resource.getDefiningOp();
    SmallVector<Value> completions;
    if (ownership.lastUser)
      completions = pendingUses(ownership);
    // Used by a region op, the memory also waits for the resource to exist
    // and for everything a region op that made it did: a region op's done
    // timepoint does not follow what came before it (a loop that runs no
    // iteration passes its initial timepoints on), so a use by one covers
    // neither.
    if (Value exists = existsAt(ownership.resource))
      if (ownership.uses.empty() || ownership.usedByRegionOp)
        completions.push_back(exists);
    if (def && isStructuredRegionOp(def) && ownership.usedByRegionOp)
      if (Value done = doneTimepointOf(def))
        completions.push_back(done);
    Value resource = ownership.resource;
    Block *home = resource.getParentBlock();
    if (ownership.lastUser)
      builder.setInsertionPointAfter(ownership.lastUser);
    else if (def)
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(home);
    // Freed only where it is not passed on as what a position it was lent
    // to holds.
    Value passedOnUnless;
    if (ownership.escape.use) {
      passedOnUnless = passOnWhereLent(ownership);
      if (!passedOnUnless)
        return;
    }
    // A carried value's size is the size it was allocated with.
    Value size = ownership.size;
    if (!size)
      size = ResourceSizeOp::create(builder, loc, builder.getIndexType(),
                                    ownership.resource);
    Value after = joinTimepoints(builder, loc, completions);
    // A member of a flagged position is freed (or released) only where it
    // holds an owned value.
    Value condition = ownership.ownedFlag;
    if (passedOnUnless)
      condition = condition ? arith::AndIOp::create(builder, loc, condition,
                                                    passedOnUnless)
                            : passedOnUnless;
    if (ownership.disposal == Disposal::ReleaseFirst)
      condition = releaseIf(loc, ownership.resource, size, condition);
    // Freed on the queue of the device that allocated it, in order with
    // that device's later allocations (as the liveness walk counts): an
    // allocation of this function is freed there anyway; one without an
    // affinity, a carried value (allocated wherever its first value was),
    // or a callee's result (allocated where the callee chose), is routed to
    // its origin device at run time.
    bool preferOrigin = !def || !getAffinity(def) || isa<TensorImportOp>(def) ||
                        isStructuredRegionOp(def);
    auto dealloca = ResourceDeallocaOp::create(
        builder, loc, TimepointType::get(func.getContext()), after,
        ownership.resource, size, condition, preferOrigin);
    deallocations[home].push_back(dealloca.getResultTimepoint());
  }

  // For a resource its block's terminator (or an export to the caller) may
  // pass on as what a position it was lent to holds: the terminator passes
  // its ownership on in the flag it passes beside the member where the
  // flags on the way are all clear (the member is the resource); the caller
  // owns whatever it is handed. Returns their disjunction, where it is not
  // passed on (where it is owned, it is freed there); null if it always is
  // (the positions hold nothing else unowned). Several resources escaping
  // through one operand each add to its flag. The disjunction is built at
  // the builder's insertion point (where the resource is freed).
  Value passOnWhereLent(const Ownership &ownership) {
    OpOperand &escape = *ownership.escape.use;
    Operation *terminator = escape.getOwner();
    Location loc = terminator->getLoc();
    auto orOf = [&](Value a, Value b) {
      return a ? arith::OrIOp::create(builder, loc, a, b).getResult() : b;
    };
    Value lentFlag;
    for (Value escapeFlag : ownership.escape.flags)
      lentFlag = orOf(lentFlag, escapeFlag);
    if (isa<TensorExportOp>(terminator))
      return lentFlag;
    OpBuilder::InsertionGuard guard(builder);
    Position to = *passedTo(escape);
    OpOperand &flag = terminator->getOpOperand(
        escape.getOperandNumber() - to.index + flagSlots.at(key(to)));
    builder.setInsertionPoint(terminator);
    Value owned = ownership.ownedFlag;
    if (!owned)
      owned = arith::ConstantIntOp::create(builder, loc, 1, 1);
    Value passed = orOf(lentFlag, owned);
    // Another resource's escape set it before, or the member's own flag.
    Value before = flag.get();
    if (getConstantIntValue(before) != 0 &&
        !llvm::is_contained(ownership.escape.flags, before))
      passed = orOf(before, passed);
    flag.set(passed);
    if (before.use_empty() && before.getDefiningOp<arith::ConstantOp>())
      before.getDefiningOp()->erase();
    return lentFlag;
  }

  // Releases `resource`, where `owned` (if given) is set: whether that was
  // the last owner.
  Value releaseIf(Location loc, Value resource, Value size, Value owned) {
    Type i1 = builder.getI1Type();
    if (!owned)
      return ResourceReleaseOp::create(builder, loc, i1, resource, size);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{i1}, owned,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(builder, loc,
                         ValueRange{ResourceReleaseOp::create(builder, loc, i1,
                                                              resource, size)});
    builder.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        builder, loc,
        ValueRange{arith::ConstantIntOp::create(builder, loc, 0, 1)});
    return ifOp.getResult(0);
  }

  // Frees a resource one branch of `ownership.branchOp` hands out at the end
  // of every other branch: after what that branch did (the "everything
  // done" timepoint it passes on) and what used the resource before the op
  // (the last write and the uses after it).
  void freeInOtherBranches(const Ownership &ownership) {
    Operation *op = ownership.branchOp;
    Value resource = ownership.resource;
    Location loc = resource.getLoc();
    size_t at = position.lookup(op);
    auto uses = ownership.uses;
    llvm::erase_if(uses,
                   [&](const auto &use) { return std::get<0>(use) >= at; });
    llvm::stable_sort(uses, [](const auto &a, const auto &b) {
      return std::get<0>(a) < std::get<0>(b);
    });
    SmallVector<Value> before;
    if (Value exists = existsAt(resource))
      before.push_back(exists);
    for (auto &[usePosition, done, isWrite] : uses) {
      if (isWrite)
        before.clear();
      before.push_back(done);
    }
    Operation *def = resource.getDefiningOp();
    bool preferOrigin = !def || !getAffinity(def) || isStructuredRegionOp(def);
    for (Region &region : op->getRegions()) {
      Block &block = region.front();
      Operation *terminator = block.getTerminator();
      if (llvm::any_of(terminator->getOperands(), [&](Value yielded) {
            return storageOf(yielded) == resource;
          }))
        continue;
      builder.setInsertionPoint(terminator);
      SmallVector<Value> waits = before;
      waits.push_back(terminator->getOperands().back()); // everything done
      Value size = ownership.size;
      if (!size)
        size = ResourceSizeOp::create(builder, loc, builder.getIndexType(),
                                      resource);
      auto dealloca = ResourceDeallocaOp::create(
          builder, loc, TimepointType::get(func.getContext()),
          joinTimepoints(builder, loc, waits), resource, size,
          ownership.ownedFlag, preferOrigin);
      deallocations[&block].push_back(dealloca.getResultTimepoint());
    }
  }

  // Whether `block`'s terminator passes on `timepoint` as its last operand
  // (itself, or joined with others).
  static bool passesOn(Block *block, Value timepoint) {
    Operation *terminator = block->getTerminator();
    if (!terminator->getNumOperands())
      return false;
    Value done = terminator->getOperands().back();
    if (done == timepoint)
      return true;
    auto join = done.getDefiningOp<TimepointJoinOp>();
    return join && llvm::is_contained(join.getAwaitTimepoints(), timepoint);
  }

  // Nothing stays in flight when control returns to the host: a region
  // body folds its deallocations into the "everything done" timepoint it
  // passes on (innermost first, so the enclosing body counts the region op's
  // done timepoint in turn), and the function awaits the rest before it
  // returns.
  void awaitDeallocations() {
    Block *entry = &func.getBody().front();
    auto depth = [](Block *block) {
      unsigned depth = 0;
      for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
        ++depth;
      return depth;
    };
    // Every block with deallocations and the blocks around it, innermost
    // first.
    llvm::SetVector<Block *> blocks;
    for (auto &[block, timepoints] : deallocations)
      for (Block *b = block; b != entry; b = b->getParentOp()->getBlock())
        blocks.insert(b);
    SmallVector<Block *> order(blocks.begin(), blocks.end());
    llvm::stable_sort(order,
                      [&](Block *a, Block *b) { return depth(a) > depth(b); });
    // Blocks whose done timepoint already covers deallocations nested in
    // them.
    llvm::SmallPtrSet<Block *, 4> reaching;
    for (Block *block : order) {
      SmallVector<Value> timepoints = deallocations.lookup(block);
      if (timepoints.empty() && !reaching.contains(block))
        continue;
      Operation *terminator = block->getTerminator();
      Operation *regionOp = block->getParentOp();
      Location loc = terminator->getLoc();
      builder.setInsertionPoint(terminator);
      Value done = terminator->getNumOperands()
                       ? terminator->getOperands().back()
                       : Value();
      if (!done || !isa<TimepointType>(done.getType()) ||
          !doneTimepointOf(regionOp)) {
        // No "everything done" timepoint to fold them into: the body waits.
        TimepointAwaitOp::create(builder, loc,
                                 joinTimepoints(builder, loc, timepoints),
                                 ValueRange{}, ValueRange{});
        continue;
      }
      if (!timepoints.empty()) {
        SmallVector<Value> all = {done};
        all.append(timepoints);
        terminator->getOpOperands().back().set(
            joinTimepoints(builder, loc, all));
      }
      // The enclosing body passes on the region op's done timepoint, unless
      // it already does.
      Value regionDone = doneTimepointOf(regionOp);
      Block *outerBlock = regionOp->getBlock();
      if (outerBlock != entry && passesOn(outerBlock, regionDone)) {
        reaching.insert(outerBlock);
        continue;
      }
      SmallVector<Value> &outer = deallocations[outerBlock];
      if (!llvm::is_contained(outer, regionDone))
        outer.push_back(regionDone);
    }
    Operation *terminator = entry->getTerminator();
    builder.setInsertionPoint(terminator);
    if (Value all = joinTimepoints(builder, terminator->getLoc(),
                                   deallocations.lookup(entry)))
      TimepointAwaitOp::create(builder, terminator->getLoc(), all, ValueRange{},
                               ValueRange{});
  }

  func::FuncOp func;
  SymbolTableCollection &symbols;
  OpBuilder builder;
  llvm::DenseMap<Operation *, size_t> position;
  std::map<PositionKey, Carried> carried;
  // The number of the owned flag of each flagged position among its op's
  // results (and a loop's iter_args); for a while's before position, among
  // its inits and before-region arguments.
  std::map<PositionKey, unsigned> flagSlots;
  SmallVector<Operation *> placeholders;
  std::set<PositionKey> followed;
  llvm::MapVector<Block *, SmallVector<Value>> deallocations;
  SmallVector<AliasCopy> aliasCopies;
};

struct AutomaticReferenceCountingPass
    : impl::AutomaticReferenceCountingPassBase<AutomaticReferenceCountingPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      FailureOr<bool> hasWork =
          hasStraightLineStreamCode(func, "reference counting");
      if (failed(hasWork))
        return signalPassFailure();
      if (!*hasWork)
        continue;
      FunctionOwnership(func, symbols).run();
    }
  }
};

} // namespace
} // namespace ferry::stream
