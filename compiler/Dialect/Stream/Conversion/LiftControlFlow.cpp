// Lifting a tensor function's branches to structured control flow before
// convert-input-to-stream imports it (LiftControlFlow.h).

#include "compiler/Dialect/Stream/Conversion/LiftControlFlow.h"

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace ferry::stream::input {

// The decision a lifted loop makes each iteration: the `scf.if` (nested
// ifs and `scf.index_switch`es, for a body with branches: lifting makes a
// switch of a `cf.switch`) whose constant yields say whether the loop goes
// on. Each leaf is one path through the branch ops to a yield whose flag
// is a constant.
namespace {
struct FlagLeaf {
  // The branch ops on the way down and the region taken in each.
  SmallVector<std::pair<Operation *, unsigned>> path;
  bool exits;
};
} // namespace

// The branch ops a flag's tree is made of: each region one block ending in
// an `scf.yield` of the op's results.
static bool isBranchOp(Operation *op) {
  return isa_and_nonnull<scf::IfOp, scf::IndexSwitchOp>(op);
}

static scf::YieldOp yieldOf(Operation *op, unsigned region) {
  return cast<scf::YieldOp>(op->getRegion(region).front().getTerminator());
}

// Follows result `index` of `op` down to constants, one leaf per path;
// fails on a flag that is not a constant on some path.
static LogicalResult
collectLeaves(Operation *op, unsigned index,
              SmallVectorImpl<std::pair<Operation *, unsigned>> &path,
              SmallVectorImpl<FlagLeaf> &leaves) {
  for (unsigned region = 0; region < op->getNumRegions(); ++region) {
    path.push_back({op, region});
    Value flag = yieldOf(op, region).getOperand(index);
    APInt bits;
    if (matchPattern(flag, m_ConstantInt(&bits))) {
      FlagLeaf leaf;
      leaf.path.assign(path.begin(), path.end());
      leaf.exits = !bits[0];
      leaves.push_back(std::move(leaf));
    } else {
      Operation *nested = flag.getDefiningOp();
      if (!isBranchOp(nested) ||
          nested->getBlock() != &op->getRegion(region).front() ||
          failed(collectLeaves(nested, cast<OpResult>(flag).getResultNumber(),
                               path, leaves)))
        return failure();
    }
    path.pop_back();
  }
  return success();
}

// The value `value` (an operand of the condition) has on `leaf`'s path.
static Value valueOnLeaf(Value value, const FlagLeaf &leaf) {
  for (auto [op, region] : leaf.path)
    if (value.getDefiningOp() == op)
      value = yieldOf(op, region)
                  .getOperand(cast<OpResult>(value).getResultNumber());
  return value;
}

// Branch op `op` rebuilt with the results `keep` says and `extra` more
// (whose yields the caller has appended); uses of the kept results move to
// the new op.
static Operation *rebuildBranch(Operation *op, ArrayRef<bool> keep,
                                TypeRange extra) {
  SmallVector<Type> types;
  for (auto [result, kept] : llvm::zip(op->getResults(), keep))
    if (kept)
      types.push_back(result.getType());
  llvm::append_range(types, extra);
  OperationState state(op->getLoc(), op->getName(), op->getOperands(), types,
                       op->getAttrs());
  for (unsigned region = 0; region < op->getNumRegions(); ++region)
    state.addRegion();
  OpBuilder builder(op);
  Operation *rebuilt = builder.create(state);
  for (unsigned region = 0; region < op->getNumRegions(); ++region)
    rebuilt->getRegion(region).takeBody(op->getRegion(region));
  unsigned next = 0;
  for (auto [result, kept] : llvm::zip(op->getResults(), keep))
    if (kept)
      result.replaceAllUsesWith(rebuilt->getResult(next++));
  op->erase();
  return rebuilt;
}

// Adds one result per group to every branch op of the flag's tree below
// `op` (whose flag is result `flagIndex`): a leaf yields the group's value
// on it (`values[group][leaf]`, leaves numbered in collectLeaves's order),
// an op above a nested one passes on the nested op's new results. Returns
// the op that replaces `op`.
static Operation *addLeafResults(Operation *op, unsigned flagIndex,
                                 ArrayRef<SmallVector<Value>> values,
                                 TypeRange types, unsigned &leaf) {
  for (unsigned region = 0; region < op->getNumRegions(); ++region) {
    scf::YieldOp yield = yieldOf(op, region);
    Value flag = yield.getOperand(flagIndex);
    APInt bits;
    if (matchPattern(flag, m_ConstantInt(&bits))) {
      for (const SmallVector<Value> &perLeaf : values)
        yield->insertOperands(yield->getNumOperands(), perLeaf[leaf]);
      ++leaf;
      continue;
    }
    Operation *rebuilt = addLeafResults(flag.getDefiningOp(),
                                        cast<OpResult>(flag).getResultNumber(),
                                        values, types, leaf);
    yield->insertOperands(yield->getNumOperands(),
                          rebuilt->getResults().take_back(values.size()));
  }
  SmallVector<bool> keep(op->getNumResults(), true);
  return rebuildBranch(op, keep, types);
}

// Drops the results nothing uses from the branch ops (ifs and switches)
// of `region`, outer ones first (an inner op's result may be used only by
// an outer yield that goes), after reading a value from outside that every
// branch yields directly.
static void dropUnusedBranchResults(Region &region) {
  SmallVector<Operation *> branches;
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isBranchOp(op))
      branches.push_back(op);
  });
  for (Operation *op : branches) {
    unsigned regions = op->getNumRegions();
    for (auto [index, result] : llvm::enumerate(op->getResults())) {
      Value first = yieldOf(op, 0).getOperand(index);
      bool same = !op->isAncestor(first.getParentBlock()->getParentOp());
      for (unsigned region = 1; region < regions; ++region)
        same &= yieldOf(op, region).getOperand(index) == first;
      if (same)
        result.replaceAllUsesWith(first);
    }
    SmallVector<bool> keep;
    for (Value result : op->getResults())
      keep.push_back(!result.use_empty());
    if (llvm::all_of(keep, [](bool kept) { return kept; }))
      continue;
    for (unsigned region = 0; region < regions; ++region) {
      scf::YieldOp yield = yieldOf(op, region);
      for (unsigned index = keep.size(); index-- > 0;)
        if (!keep[index])
          yield->eraseOperand(index);
    }
    rebuildBranch(op, keep, {});
  }
}

// Whether the after region never reads its argument `index`: unused, or
// only passed back to a before-region argument nothing reads.
static bool isDeadAfterArgument(scf::WhileOp loop, unsigned index) {
  Operation *yield = loop.getAfterBody()->getTerminator();
  for (OpOperand &use : loop.getAfterArguments()[index].getUses())
    if (use.getOwner() != yield ||
        !loop.getBeforeArguments()[use.getOperandNumber()].use_empty())
      return false;
  return true;
}

// Lifting rotates a loop of blocks: the before region runs the whole
// iteration inside an `scf.if` (or a tree of them and of
// `scf.index_switch`es, for a body with branches) whose constant yields
// decide the flag, and the condition passes every value an exit needs in
// positions of their own, besides the positions the next iteration reads.
// The exit's value is often the carried value the iteration overwrites
// (the old accumulator, passed out as a before-region argument), so it
// stays live after the body's write: an update in place copies, an
// elementwise update allocates, every iteration.
//
// A position's value matters only on the leaves that exit if the loop's
// result is used, and only on the leaves that go on if the after region
// reads its argument. Positions of one type that carry one variable (they
// share a value, or one passes the value the other goes on in) and agree
// on every leaf where both matter are merged: a new result of the flag's
// tree yields on each leaf the value that matters there, every merged
// position passes it, and the users of their results and after-region
// arguments read the first. Then the old accumulator is read only on the
// exit's path, the body's write is its last use on the other, and the
// leftover positions are dead (dropDeadPositions removes them). A position
// of another variable joins a group too where neither passes a value the
// iteration received (so no old value leaves in another variable's
// position): an exit's new value in the body, which the body may write in
// place to make the next accumulator, with an accumulator no exit reads.
// On an exit where no position of the group matters, the group passes what
// it goes on with if that is in scope there (an exit in the middle of the
// body), else the before-region argument it goes on in (an exit before the
// body), rather than a poison the import would allocate; that also makes a
// value passed on unchanged read the same on every leaf, so the loop stops
// carrying it.
//
// Sound for any `scf.while`: only the flag's tree is assumed, each leaf's
// flag a constant (a flag decided otherwise leaves the loop as it is), and
// every value a leaf yields is one that dominates its yield.
static void carryExitValues(scf::WhileOp loop) {
  DominanceInfo dominance(loop);
  scf::ConditionOp condition = loop.getConditionOp();
  Value flag = condition.getCondition();
  if (auto trunc = flag.getDefiningOp<arith::TruncIOp>())
    flag = trunc.getIn();
  Operation *top = flag.getDefiningOp();
  if (!isBranchOp(top) || top->getBlock() != loop.getBeforeBody())
    return;
  unsigned flagIndex = cast<OpResult>(flag).getResultNumber();
  SmallVector<FlagLeaf> leaves;
  SmallVector<std::pair<Operation *, unsigned>> path;
  if (failed(collectLeaves(top, flagIndex, path, leaves)))
    return;
  auto leafYield = [&](const FlagLeaf &leaf) {
    return yieldOf(leaf.path.back().first, leaf.path.back().second);
  };

  // The before-region argument the after region passes argument `index`
  // back to, if anything reads it: the value that position goes on in.
  Operation *afterYield = loop.getAfterBody()->getTerminator();
  auto carriedInOf = [&](unsigned index) -> Value {
    for (OpOperand &use : loop.getAfterArguments()[index].getUses())
      if (use.getOwner() == afterYield &&
          !loop.getBeforeArguments()[use.getOperandNumber()].use_empty())
        return loop.getBeforeArguments()[use.getOperandNumber()];
    return Value();
  };

  // A null value: the position's value does not matter on that leaf.
  struct Group {
    SmallVector<unsigned> members;
    SmallVector<Value> values;
    Value carriedIn;
  };
  SmallVector<Group> groups;
  for (auto [index, operand] : llvm::enumerate(condition.getArgs())) {
    if (!isa<TensorType>(operand.getType()))
      continue;
    bool exitDead = loop.getResult(index).use_empty();
    bool onDead = isDeadAfterArgument(loop, index);
    if (exitDead && onDead)
      continue;
    SmallVector<Value> values;
    bool dominates = true;
    for (const FlagLeaf &leaf : leaves) {
      Value value = valueOnLeaf(operand, leaf);
      dominates &= dominance.properlyDominates(value, leafYield(leaf));
      bool matters = !(leaf.exits ? exitDead : onDead) &&
                     !value.getDefiningOp<ub::PoisonOp>();
      values.push_back(matters ? value : Value());
    }
    if (!dominates)
      continue;
    Value carriedIn = carriedInOf(index);
    // A position joins a group it agrees with on every leaf and that
    // carries the same variable: a value in common (on any leaf), or one
    // passes the value the other goes on in. (Two accumulators of one type
    // must not trade their old values, or one would be passed twice.)
    auto holds = [](ArrayRef<Value> values, Value value) {
      return value && llvm::is_contained(values, value);
    };
    auto fits = [&](const Group &group) {
      if (condition.getArgs()[group.members.front()].getType() !=
          operand.getType())
        return false;
      for (auto [mine, theirs] : llvm::zip(values, group.values))
        if (mine && theirs && mine != theirs)
          return false;
      return llvm::any_of(
                 values,
                 [&](Value mine) { return holds(group.values, mine); }) ||
             holds(group.values, carriedIn) || holds(values, group.carriedIn);
    };
    // Else a group it agrees with where neither passes a value the loop
    // received (a before-region argument, which would then leave in
    // another variable's position) and at most one goes on in a position
    // of its own: an exit's new value, not carried, joins a carried value
    // the exits never read, rather than each passing a poison (an
    // allocation) where only the other matters.
    auto received = [&](ArrayRef<Value> values) {
      return llvm::any_of(values, [&](Value value) {
        auto argument = dyn_cast_or_null<BlockArgument>(value);
        return argument && argument.getOwner() == loop.getBeforeBody();
      });
    };
    auto fitsUnrelated = [&](const Group &group) {
      if (condition.getArgs()[group.members.front()].getType() !=
              operand.getType() ||
          received(values) || received(group.values) ||
          (carriedIn && group.carriedIn))
        return false;
      for (auto [mine, theirs] : llvm::zip(values, group.values))
        if (mine && theirs && mine != theirs)
          return false;
      return true;
    };
    auto *group = llvm::find_if(groups, fits);
    if (group == groups.end())
      group = llvm::find_if(groups, fitsUnrelated);
    if (group == groups.end()) {
      groups.push_back({{static_cast<unsigned>(index)}, values, carriedIn});
      continue;
    }
    group->members.push_back(index);
    if (!group->carriedIn)
      group->carriedIn = carriedIn;
    for (auto [mine, theirs] : llvm::zip(values, group->values))
      if (!theirs)
        theirs = mine;
  }

  // Fill the leaves where no member matters; keep the groups that change.
  // A value passed in one position on a leaf is not passed in a second.
  SmallVector<llvm::SmallPtrSet<Value, 4>> taken(leaves.size());
  for (Group &group : groups)
    for (auto [leafTaken, value] : llvm::zip(taken, group.values))
      if (value)
        leafTaken.insert(value);
  SmallVector<Group> changed;
  for (Group &group : groups) {
    unsigned first = group.members.front();
    // An exit where no member matters passes what the group goes on with
    // if that is in scope there (an exit in the middle of the body: the
    // value the iteration made), else the value the iteration received
    // (an exit before the body), not a poison; the old value is then read
    // on no path after the body's write.
    auto goesOnWith = [&](const FlagLeaf &exit) -> Value {
      for (auto [leaf, value] : llvm::zip(leaves, group.values))
        if (!leaf.exits && value &&
            dominance.properlyDominates(value, leafYield(exit)))
          return value;
      return group.carriedIn;
    };
    // A path that goes on where no member matters (an exit in the body
    // passing a value the loop does not carry) passes what an exit passes
    // if that is in scope there and only ever read or passed on (nothing
    // could write it in place before), not a poison: an allocation every
    // iteration.
    auto onlyRead = [](Value value) {
      return llvm::all_of(value.getUsers(), [](Operation *user) {
        return isa<tensor::ExtractOp, scf::YieldOp, scf::ConditionOp>(user);
      });
    };
    auto exitsWith = [&](const FlagLeaf &goesOn) -> Value {
      for (auto [leaf, value] : llvm::zip(leaves, group.values))
        if (leaf.exits && value && onlyRead(value) &&
            dominance.properlyDominates(value, leafYield(goesOn)))
          return value;
      return Value();
    };
    bool improves = group.members.size() > 1;
    SmallVector<Value> filled(group.values);
    for (auto [leaf, value, leafTaken] : llvm::zip(leaves, filled, taken)) {
      if (value)
        continue;
      Value original = valueOnLeaf(condition.getArgs()[first], leaf);
      Value instead = leaf.exits ? goesOnWith(leaf) : exitsWith(leaf);
      value = instead && !leafTaken.contains(instead) ? instead : original;
      leafTaken.insert(value);
      improves |= value != original;
    }
    group.values = std::move(filled);
    if (improves)
      changed.push_back(std::move(group));
  }
  if (changed.empty())
    return;

  SmallVector<SmallVector<Value>> values;
  SmallVector<Type> types;
  for (Group &group : changed) {
    values.push_back(group.values);
    types.push_back(group.values.front().getType());
  }
  unsigned leaf = 0;
  top = addLeafResults(top, flagIndex, values, types, leaf);
  for (auto [group, merged] :
       llvm::zip(changed, top->getResults().take_back(changed.size()))) {
    unsigned first = group.members.front();
    for (unsigned member : group.members) {
      condition.getArgsMutable()[member].set(merged);
      if (member == first)
        continue;
      loop.getResult(member).replaceAllUsesWith(loop.getResult(first));
      loop.getAfterArguments()[member].replaceAllUsesWith(
          loop.getAfterArguments()[first]);
    }
  }
  dropUnusedBranchResults(loop.getBefore());
}

// Lifting rotates a loop whose only exit is its header's test, too: the
// before region runs the body in one region of an scf.if on that test and
// passes the exit's values in the other, and the after region passes every
// value back. The memory passes follow a loop in the usual form better: in
// the rotated one, an accumulator the exit passes on and the body lends to
// an inner loop that may run no iteration leaves the iteration at two
// positions, one per region of the scf.if, which the owned flags cannot
// say (reference counting leaves it to the run time); in the usual form it
// leaves at one. So such a loop is rewritten: its before region keeps what
// comes before the test and passes the exit's values (and what the body
// reads of the region besides) to the after region, which runs the body and
// yields what the next iteration reads. Left as it is where the scf.if's
// exit region computes anything, where the loop goes on under something
// other than the test (negated) or a flag its regions yield as constants,
// where something but that flag follows the scf.if, or where one tensor
// would leave at two positions.
static void unrotate(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody();
  Block *after = loop.getAfterBody();
  scf::ConditionOp condition = loop.getConditionOp();
  ValueRange passed = condition.getArgs();
  if (passed.empty() || !llvm::hasSingleElement(*after) ||
      !llvm::equal(after->getTerminator()->getOperands(),
                   after->getArguments()))
    return;
  auto ifOp = passed.front().getDefiningOp<scf::IfOp>();
  if (!ifOp || ifOp->getBlock() != before ||
      llvm::any_of(passed,
                   [&](Value value) { return value.getDefiningOp() != ifOp; }))
    return;
  Value go = condition.getCondition();
  std::optional<bool> thenGoesOn = thenRunsWhen(ifOp, go, true);
  std::optional<bool> thenLeaves = thenRunsWhen(ifOp, go, false);
  if (!thenGoesOn || !thenLeaves || *thenGoesOn == *thenLeaves)
    return;
  Region &body = *thenGoesOn ? ifOp.getThenRegion() : ifOp.getElseRegion();
  Region &exit = *thenGoesOn ? ifOp.getElseRegion() : ifOp.getThenRegion();
  if (exit.empty() || !llvm::hasSingleElement(exit.front()))
    return;
  // What follows the scf.if only computes the flag.
  for (Operation &op : llvm::make_range(std::next(ifOp->getIterator()),
                                        condition->getIterator()))
    if (!isPure(&op) || llvm::any_of(op.getUsers(), [&](Operation *user) {
          return user->getBlock() != before || user->isBeforeInBlock(&op);
        }))
      return;
  // The exit's value at each position, and the values of the before region
  // the body reads besides: passed at positions of their own.
  auto bodyYield = cast<scf::YieldOp>(body.front().getTerminator());
  auto exitYield = cast<scf::YieldOp>(exit.front().getTerminator());
  SmallVector<unsigned> resultOf;
  SmallVector<Value> exitValues;
  for (Value value : passed) {
    resultOf.push_back(cast<OpResult>(value).getResultNumber());
    exitValues.push_back(exitYield.getOperand(resultOf.back()));
  }
  for (auto [i, value] : llvm::enumerate(exitValues))
    if (isa<TensorType>(value.getType()) &&
        llvm::is_contained(ArrayRef(exitValues).drop_front(i + 1), value))
      return;
  llvm::SetVector<Value> reads;
  body.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (operand.getParentBlock() == before &&
          !llvm::is_contained(exitValues, operand))
        reads.insert(operand);
  });

  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Type> types(passed.getTypes());
  for (Value value : reads)
    types.push_back(value.getType());
  auto rewritten = scf::WhileOp::create(builder, loc, types, loop.getInits());
  SmallVector<Location> beforeLocs(before->getNumArguments(), loc);
  Block *newBefore = builder.createBlock(
      &rewritten.getBefore(), {}, before->getArgumentTypes(), beforeLocs);
  SmallVector<Location> afterLocs(types.size(), loc);
  Block *newAfter =
      builder.createBlock(&rewritten.getAfter(), {}, types, afterLocs);
  // The after region reads what the condition passes in place of the
  // before region's values.
  SmallVector<Value> passedOn(exitValues);
  llvm::append_range(passedOn, reads);
  for (auto [i, value] : llvm::enumerate(passedOn))
    if (value.getParentBlock() == before)
      value.replaceUsesWithIf(newAfter->getArgument(i), [&](OpOperand &use) {
        return body.isAncestor(use.getOwner()->getParentRegion());
      });
  for (auto [from, to] :
       llvm::zip_equal(before->getArguments(), newBefore->getArguments()))
    from.replaceAllUsesWith(to);
  for (Value &value : passedOn)
    if (auto arg = dyn_cast<BlockArgument>(value);
        arg && arg.getOwner() == before)
      value = newBefore->getArgument(arg.getArgNumber());
  // Ops before the test stay in the before region; the body moves.
  while (&before->front() != ifOp.getOperation())
    before->front().moveBefore(newBefore, newBefore->end());
  Block &bodyBlock = body.front();
  while (&bodyBlock.front() != bodyYield.getOperation())
    bodyBlock.front().moveBefore(newAfter, newAfter->end());
  builder.setInsertionPointToEnd(newBefore);
  Value goesOn = ifOp.getCondition();
  if (!*thenGoesOn)
    goesOn = arith::XOrIOp::create(
        builder, loc, goesOn, arith::ConstantIntOp::create(builder, loc, 1, 1));
  scf::ConditionOp::create(builder, loc, goesOn, passedOn);
  builder.setInsertionPointToEnd(newAfter);
  SmallVector<Value> next;
  for (unsigned number : resultOf)
    next.push_back(bodyYield.getOperand(number));
  scf::YieldOp::create(builder, loc, next);
  loop.replaceAllUsesWith(
      rewritten.getResults().take_front(loop.getNumResults()));
  loop.erase();
}

// The positions of the lifted loops nothing reads (the unused arguments
// lifting passes poison to, those carryExitValues leaves) go with the
// while's canonicalization, then the results of the branch ops that fed
// only them (a tensor poison each would yield is an allocation nobody
// uses, on a path that may run every iteration).
static void dropDeadPositions(func::FuncOp func) {
  SmallVector<Operation *> loops;
  func.walk([&](scf::WhileOp op) { loops.push_back(op); });
  RewritePatternSet patterns(func.getContext());
  scf::WhileOp::getCanonicalizationPatterns(patterns, func.getContext());
  (void)applyOpPatternsGreedily(loops, std::move(patterns));
  dropUnusedBranchResults(func.getBody());
}

// Lifting makes one `ub.poison` per type at the function's entry and yields
// it on the paths that never use it, inside the loops and branches it
// builds. A tensor poison captured that way is a value from outside a loop
// passed into a carried position, which makes the position's owner unknown
// (reference counting marks it indeterminate). A poison of its own right
// before each user is a fresh value that user's path owns.
static void splitTensorPoison(func::FuncOp func) {
  SmallVector<ub::PoisonOp> poisons;
  func.walk([&](ub::PoisonOp poison) {
    if (isa<TensorType>(poison.getType()))
      poisons.push_back(poison);
  });
  for (ub::PoisonOp poison : poisons) {
    for (OpOperand &use : llvm::make_early_inc_range(poison->getUses())) {
      OpBuilder builder(use.getOwner());
      use.set(builder.clone(*poison)->getResult(0));
    }
    poison.erase();
  }
}

// A tensor function with several blocks is lifted to structured control
// flow (as `--lift-cf-to-scf` does); a branch it cannot lift is reported.
LogicalResult liftControlFlow(func::FuncOp func) {
  if (func.isDeclaration() || func.getBody().hasOneBlock())
    return success();
  ControlFlowToSCFTransformation transformation;
  DominanceInfo dominance(func);
  if (succeeded(transformCFGToSCF(func.getBody(), transformation, dominance)) &&
      func.getBody().hasOneBlock()) {
    SmallVector<scf::WhileOp> loops;
    func.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    for (scf::WhileOp loop : loops)
      carryExitValues(loop);
    dropDeadPositions(func);
    loops.clear();
    func.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    for (scf::WhileOp loop : loops)
      unrotate(loop);
    dropDeadPositions(func);
    splitTensorPoison(func);
    return success();
  }
  for (Block &block : func.getBody())
    if (Operation *terminator = block.getTerminator();
        terminator && terminator->getNumSuccessors() > 0)
      return terminator->emitError()
             << "'" << terminator->getName()
             << "' in a function that uses tensors could not be lifted to "
                "structured control flow (scf); only functions without "
                "tensors may branch freely";
  return func.emitError() << "function '" << func.getSymName()
                          << "' uses tensors and has several blocks that "
                             "could not be lifted to structured control flow";
}

} // namespace ferry::stream::input
