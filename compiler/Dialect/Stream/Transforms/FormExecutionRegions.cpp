// Groups runs of device work into execution regions (stream.cmd.execute), so
// that each run is submitted as a unit: one wait before it, one signal after
// it. See Passes.td for what makes a run.
//
// Runs right after stream-schedule-allocation, on single-block functions,
// and in the body of every region op (scf.for, scf.if, ...) inside them the
// same way: a region op is not transparent, so no run spans one.
// The region takes the place of the run's last command: the commands before
// it move down past side-effect-free ops only (sizes, constants, timepoint
// joins), which is always safe; a join between the commands that a later op
// still needs, and that waited on a moved command, moves after the region.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ferry::stream {
#define GEN_PASS_DEF_FORMEXECUTIONREGIONSPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

// Device work that can run inside a region.
bool isCommand(Operation *op) {
  return isa<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp>(op);
}

// Ops a run may continue across: they neither touch memory nor the
// timeline, so moving the run's commands past them changes nothing.
bool isTransparent(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

OpOperand *awaitOperandOf(Operation *command) {
  return TypeSwitch<Operation *, OpOperand *>(command)
      .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp>(
          [](auto op) -> OpOperand * {
            MutableOperandRange await = op.getAwaitTimepointMutable();
            return await.empty() ? nullptr : &await[0];
          });
}

void clearAwait(Operation *command) {
  TypeSwitch<Operation *>(command)
      .Case<CmdDispatchOp, CmdDispatchEntryOp, CmdFillOp, CmdCopyOp>(
          [](auto op) { op.getAwaitTimepointMutable().clear(); });
}

// Calls `fn(resource, size)` for each resource operand of `command`.
void forEachSizedResource(Operation *command,
                          function_ref<void(Value, Value)> fn) {
  if (auto dispatch = dyn_cast<CmdDispatchOp>(command)) {
    for (auto [resource, size] :
         llvm::zip_equal(dispatch.getResourceOperands(),
                         dispatch.getResourceOperandSizes()))
      fn(resource, size);
  } else if (auto entry = dyn_cast<CmdDispatchEntryOp>(command)) {
    for (auto [resource, size] : llvm::zip_equal(
             entry.getResourceOperands(), entry.getResourceOperandSizes()))
      fn(resource, size);
  } else if (auto fill = dyn_cast<CmdFillOp>(command)) {
    fn(fill.getTarget(), fill.getTargetSize());
  } else if (auto copy = dyn_cast<CmdCopyOp>(command)) {
    fn(copy.getSource(), copy.getSourceSize());
    fn(copy.getTarget(), copy.getTargetSize());
  }
}

// The timepoints `timepoint` stands for, looking through joins.
void collectLeaves(Value timepoint, llvm::SetVector<Value> &leaves) {
  if (auto join = timepoint.getDefiningOp<TimepointJoinOp>()) {
    for (Value input : join.getAwaitTimepoints())
      collectLeaves(input, leaves);
    return;
  }
  leaves.insert(timepoint);
}

// Erases the joins of `candidates` nobody uses any more, and the joins that
// only they used.
void eraseDeadJoins(SmallVector<TimepointJoinOp> candidates,
                    llvm::SmallPtrSetImpl<Operation *> &erased) {
  while (!candidates.empty()) {
    TimepointJoinOp join = candidates.pop_back_val();
    if (erased.contains(join) || !join->use_empty())
      continue;
    for (Value input : join.getAwaitTimepoints())
      if (auto inner = input.getDefiningOp<TimepointJoinOp>())
        candidates.push_back(inner);
    erased.insert(join);
    join->erase();
  }
}

void formRegion(ArrayRef<Operation *> run) {
  Operation *first = run.front(), *last = run.back();
  llvm::SmallPtrSet<Operation *, 8> inRun(run.begin(), run.end());
  // Ops between the commands stay outside the region.
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != last; op = op->getNextNode())
    if (!inRun.contains(op))
      between.push_back(op);

  // Everything the run waits for from outside becomes the region's await;
  // what its commands wait for from each other, the queue's order gives.
  llvm::SetVector<Value> external;
  for (Operation *command : run)
    if (OpOperand *await = awaitOperandOf(command)) {
      llvm::SetVector<Value> leaves;
      collectLeaves(await->get(), leaves);
      for (Value leaf : leaves)
        if (!inRun.contains(leaf.getDefiningOp()))
          external.insert(leaf);
    }
  llvm::SetVector<Value> resources;
  SmallVector<Value> sizes;
  for (Operation *command : run)
    forEachSizedResource(command, [&](Value resource, Value size) {
      if (resources.insert(resource))
        sizes.push_back(size);
    });

  OpBuilder builder(last);
  Location loc = builder.getFusedLoc(llvm::map_to_vector(
      run, [](Operation *command) { return command->getLoc(); }));
  Value await = joinTimepoints(builder, loc, external.getArrayRef());
  auto execute =
      CmdExecuteOp::create(builder, loc, await, resources.getArrayRef(), sizes);
  setAffinity(execute, getAffinity(first));
  Block *body = execute.getBody();
  llvm::DenseMap<Value, Value> captureOf;
  for (auto [resource, capture] :
       llvm::zip_equal(resources, body->getArguments()))
    captureOf[resource] = capture;

  // The commands move in, without their awaits and reading the captures.
  SmallVector<TimepointJoinOp> maybeDead;
  for (Operation *command : run) {
    if (OpOperand *awaitOperand = awaitOperandOf(command)) {
      if (auto join = awaitOperand->get().getDefiningOp<TimepointJoinOp>())
        maybeDead.push_back(join);
      clearAwait(command);
    }
    command->moveBefore(body, body->end());
    for (OpOperand &operand : command->getOpOperands())
      if (isa<ResourceType>(operand.get().getType()))
        operand.set(captureOf.lookup(operand.get()));
  }
  // Whoever waited for one of the commands waits for the region.
  for (Operation *command : run)
    command->getResult(0).replaceAllUsesWith(execute.getResultTimepoint());

  llvm::SmallPtrSet<Operation *, 8> erased;
  eraseDeadJoins(std::move(maybeDead), erased);
  // Joins between the commands that still wait for the region (for later
  // ops) must follow it.
  llvm::SmallPtrSet<Operation *, 8> moved{execute};
  Operation *anchor = execute;
  for (Operation *op : between) {
    if (erased.contains(op))
      continue;
    if (llvm::none_of(op->getOperands(), [&](Value operand) {
          return moved.contains(operand.getDefiningOp());
        }))
      continue;
    op->moveAfter(anchor);
    anchor = op;
    moved.insert(op);
  }
}

// Splits `block` into runs and makes a region of each of two or more
// commands: a region of one would add nothing.
void formRegions(Block &block) {
  SmallVector<Operation *> run;
  auto flush = [&] {
    if (run.size() > 1)
      formRegion(run);
    run.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isCommand(&op)) {
      if (!run.empty() &&
          !canExecuteTogether(getAffinity(run.front()), getAffinity(&op)))
        flush();
      run.push_back(&op);
    } else if (!isTransparent(&op)) {
      flush();
    }
  }
  flush();
}

struct FormExecutionRegionsPass
    : impl::FormExecutionRegionsPassBase<FormExecutionRegionsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      FailureOr<bool> hasWork =
          hasStraightLineStreamCode(func, "forming execution regions");
      if (failed(hasWork))
        return signalPassFailure();
      if (!*hasWork)
        continue;
      // Bodies of region ops too (not the execution regions just formed:
      // the walk collects the blocks first).
      SmallVector<Block *> blocks;
      func.walk([&](Block *block) {
        if (!isa<CmdExecuteOp>(block->getParentOp()))
          blocks.push_back(block);
      });
      for (Block *block : blocks)
        formRegions(*block);
    }
  }
};

} // namespace
} // namespace ferry::stream
