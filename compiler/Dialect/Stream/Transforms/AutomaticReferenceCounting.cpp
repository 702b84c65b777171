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
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <set>

namespace ferry::stream {
#define GEN_PASS_DEF_AUTOMATICREFERENCECOUNTINGPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

constexpr StringLiteral kNoSideEffectsAttr = "nosideeffects";

// The "everything issued inside is done" timepoint of a structured region
// op: its last result. Null if it has none.
Value doneTimepointOf(Operation *op) {
  if (op->getNumResults() == 0)
    return {};
  Value last = op->getResults().back();
  return isa<TimepointType>(last.getType()) ? last : Value();
}

// One carried position of a structured region op: what a loop iteration, a
// branch or a while's condition passes on in one place. `after` tells
// scf.while's after-region arguments and results from its before-region
// arguments.
struct Position {
  Operation *op = nullptr;
  bool after = false;
  unsigned index = 0;

  bool operator==(const Position &other) const {
    return op == other.op && after == other.after && index == other.index;
  }
};

// The values that hold a position's value: block arguments and results.
SmallVector<Value> membersOf(Position position) {
  return TypeSwitch<Operation *, SmallVector<Value>>(position.op)
      .Case([&](scf::ForOp op) -> SmallVector<Value> {
        return {op.getRegionIterArgs()[position.index],
                op.getResult(position.index)};
      })
      .Case([&](scf::WhileOp op) -> SmallVector<Value> {
        if (!position.after)
          return {op.getBeforeArguments()[position.index]};
        return {op.getAfterArguments()[position.index],
                op.getResult(position.index)};
      })
      .Default([&](Operation *op) -> SmallVector<Value> {
        return {op->getResult(position.index)};
      });
}

// The operands that pass a value into a position.
SmallVector<OpOperand *> incomingOf(Position position) {
  SmallVector<OpOperand *> incoming;
  auto addYields = [&](Region &region) {
    for (Block &block : region)
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        incoming.push_back(&yield->getOpOperand(position.index));
  };
  TypeSwitch<Operation *>(position.op)
      .Case([&](scf::ForOp op) {
        incoming.push_back(&op.getInitArgsMutable()[position.index]);
        addYields(op.getRegion());
      })
      .Case([&](scf::WhileOp op) {
        if (position.after) {
          incoming.push_back(
              &op.getConditionOp().getArgsMutable()[position.index]);
        } else {
          incoming.push_back(&op.getInitsMutable()[position.index]);
          addYields(op.getAfter());
        }
      })
      .Default([&](Operation *op) {
        // A branch region op: what each region yields.
        for (Region &region : op->getRegions())
          addYields(region);
      });
  return incoming;
}

// The position a value passed by `use` goes to, if `use` passes one.
std::optional<Position> passedTo(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned number = use.getOperandNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    unsigned first = forOp.getNumControlOperands();
    if (number >= first)
      return Position{user, false, number - first};
    return std::nullopt;
  }
  if (isa<scf::WhileOp>(user))
    return Position{user, false, number};
  if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
    if (number == 0)
      return std::nullopt;
    return Position{condition->getParentOp(), true, number - 1};
  }
  if (isa<scf::YieldOp>(user) && isStructuredRegionOp(user->getParentOp()))
    return Position{user->getParentOp(), false, number};
  return std::nullopt;
}

// The position `value` is a member of, if any.
std::optional<Position> positionOf(Value value) {
  if (auto result = dyn_cast<OpResult>(value)) {
    Operation *op = result.getOwner();
    if (!isStructuredRegionOp(op))
      return std::nullopt;
    return Position{op, isa<scf::WhileOp>(op), result.getResultNumber()};
  }
  auto arg = cast<BlockArgument>(value);
  Operation *op = arg.getOwner()->getParentOp();
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    if (arg.getArgNumber() < forOp.getNumInductionVars())
      return std::nullopt;
    return Position{op, false,
                    arg.getArgNumber() - forOp.getNumInductionVars()};
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return Position{op, arg.getParentRegion() == &whileOp.getAfter(),
                    arg.getArgNumber()};
  return std::nullopt;
}

// The timepoint at which `value`, a member of a position, is ready: the
// positions of resources are followed by one timepoint each, in order, and
// one last "everything done" timepoint. Null if the shape differs.
Value readyTimepointOf(Value value) {
  ValueRange values;
  unsigned number;
  if (auto result = dyn_cast<OpResult>(value)) {
    values = result.getOwner()->getResults();
    number = result.getResultNumber();
  } else {
    auto arg = cast<BlockArgument>(value);
    values = arg.getOwner()->getArguments();
    number = arg.getArgNumber();
  }
  unsigned resources = 0, index = 0;
  for (auto [i, v] : llvm::enumerate(values)) {
    if (!isa<ResourceType>(v.getType()))
      continue;
    if (i == number)
      index = resources;
    ++resources;
  }
  if (values.size() < resources + 1)
    return {};
  Value ready = values[values.size() - 1 - resources + index];
  return isa<TimepointType>(ready.getType()) ? ready : Value();
}

std::string describe(Position position) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "carried position " << position.index;
  if (isa<scf::WhileOp>(position.op))
    os << (position.after ? " (after region)" : " (before region)");
  os << " of '" << position.op->getName() << "'";
  return text;
}

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
};

// Who owns what a carried position holds, decided from everything passed
// into it.
enum class Carried { Unknown, Owned, NotOwned, Mixed };

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
    func.walk([&](Block *block) {
      for (auto [index, op] : llvm::enumerate(*block))
        position[&op] = index;
    });
    decideCarriedPositions();
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
    for (Position position : positions)
      if (carried[key(position)] == Carried::Mixed)
        position.op->emitRemark()
            << describe(position)
            << " is indeterminate: some values passed into it are owned by "
               "the program and some are not (an import, a constant, a "
               "captured value or a value used again), so its memory goes "
               "with the last reference";
  }

  using PositionKey = std::tuple<Operation *, bool, unsigned>;
  static PositionKey key(Position position) {
    return {position.op, position.after, position.index};
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
    if (from)
      return stateOf(*from);
    return isOwnedOrigin(value) ? Carried::Owned : Carried::NotOwned;
  }

  // The branch region op (`scf.if`, `scf.index_switch`) one of whose branches
  // `use` (its yield) hands out a value made before the op, as its last use:
  // nothing after the op uses the value, and no branch hands it out at another
  // position. The position then owns it, and the branches that do not hand
  // it out free it. Null for any other use.
  Operation *handingOutOp(OpOperand &use) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    Operation *op = yield ? yield->getParentOp() : nullptr;
    // (Yielded as the value, or as a call result written into it.)
    Value value = storageOf(use.get());
    if (!op || !isBranchRegionOp(op) || op->getNumRegions() < 2 ||
        value.getParentBlock() != op->getBlock() || usedAfter(value, op))
      return nullptr;
    for (Region &region : op->getRegions())
      for (OpOperand &operand : region.front().getTerminator()->getOpOperands())
        if (storageOf(operand.get()) == value &&
            operand.getOperandNumber() != use.getOperandNumber())
          return nullptr;
    return op;
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

  // Whether the program owns `value` where it is made: an allocation, a
  // new result of an external call, a consumed import (or such a value a
  // host await yields, or a call wrote into in place).
  static bool isOwnedOrigin(Value value) {
    for (value = storageOf(value);
         auto await = value.getDefiningOp<TimepointAwaitOp>();
         value = storageOf(value))
      value =
          await.getResourceOperands()[cast<OpResult>(value).getResultNumber()];
    Operation *def = value.getDefiningOp();
    if (auto alloca = dyn_cast_or_null<ResourceAllocaOp>(def))
      return !alloca.getIndeterminate();
    if (auto importOp = dyn_cast_or_null<TensorImportOp>(def))
      return importOp.getConsume();
    return isa_and_nonnull<CmdCallOp>(def);
  }

  //===------------------------------------------------------------------===//
  // Owned resources
  //===------------------------------------------------------------------===//

  // Resources `op` makes the program responsible for freeing.
  void collectOwned(Operation *op, SmallVectorImpl<Ownership> &owned) {
    auto add = [&](Value resource, Value size, Disposal disposal) {
      if (!isDisposed(resource))
        owned.push_back({resource, size, disposal, /*lastUser=*/nullptr, {}});
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
        if (positionOp != op || state != Carried::Owned)
          continue;
        for (Value member : membersOf({op, after, index}))
          add(member, /*size=*/Value(), Disposal::Free);
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
  };

  // How an owned resource goes into owned positions: passed directly (a
  // loop's init, its block's terminator), or handed out by a branch of an
  // op of its block.
  struct HandOff {
    bool passedOn = false;
    Operation *branchOp = nullptr;
  };

  // Visits every use of `resource` in its home block `home`, following its
  // other names (aliasesThrough: what host awaits yield for it, call results
  // written into it in place) and the values of positions it is lent to.
  // Records in `handOff` a use handing it into an owned position. Returns
  // false if a use is beyond the analysis (a remark says why where a
  // region is the reason).

  bool forEachUse(Value resource, Block *home, HandOff &handOff,
                  function_ref<void(const Use &)> fn) {
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
        Carried state = stateOf(*to);
        if (state == Carried::Owned && direct) {
          handOff.passedOn = true; // the position frees it now
          continue;
        }
        if (state == Carried::Owned && handingOutOp(use) == anchor) {
          handOff.branchOp = anchor; // the other branches free it
          continue;
        }
        if (state == Carried::Owned || state == Carried::Mixed)
          return false; // said by the position's remark
        // Lent: what the position holds is this resource still, and is used
        // as it. A terminator of the home block lends it beyond the home.
        if (direct && isa<scf::YieldOp, scf::ConditionOp>(user)) {
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
      // A structured region op is done with the resource when everything
      // it issued is.
      if (isStructuredRegionOp(anchor) && !doneTimepointOf(anchor)) {
        anchor->emitRemark()
            << "resource used inside '" << anchor->getName()
            << "' is indeterminate: the op has no \"everything done\" "
               "timepoint result to order its free on";
        return false;
      }
      fn({anchor, use});
      for (Value alias : aliasesThrough(use))
        if (!forEachUse(alias, home, handOff, fn))
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
      if (!forEachUse(member, home, handOff, fn))
        return false;
    }
    return true;
  }

  void analyze(Ownership &ownership) {
    bool exported = false, mayBeKept = false;
    HandOff handOff;
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
            ownership.uses.push_back({position.lookup(anchor), done,
                                      anchor == user && writes(use.operand)});
          ownership.usedByRegionOp |= isStructuredRegionOp(anchor);
          exported |= isa<TensorExportOp>(user) && (anchor == user || !lent);
          if (auto call = dyn_cast<CmdCallOp>(user))
            mayBeKept |= mayKeepArguments(call);
          // A retain makes another owner, who will release that share: the
          // program may give up only its own.
          mayBeKept |= isa<ResourceRetainOp>(user);
        });
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
    // A carried value's size is the size it was allocated with.
    Value size = ownership.size;
    if (!size)
      size = ResourceSizeOp::create(builder, loc, builder.getIndexType(),
                                    ownership.resource);
    Value after = joinTimepoints(builder, loc, completions);
    Value condition;
    if (ownership.disposal == Disposal::ReleaseFirst)
      condition = ResourceReleaseOp::create(builder, loc, builder.getI1Type(),
                                            ownership.resource, size);
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
          /*condition=*/Value(), preferOrigin);
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
  std::set<PositionKey> followed;
  llvm::MapVector<Block *, SmallVector<Value>> deallocations;
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
