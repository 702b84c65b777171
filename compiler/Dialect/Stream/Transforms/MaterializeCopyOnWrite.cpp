// Copies a value before an op writes into it, where anything else may still
// see the value. See Passes.td for the rules.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ferry::stream {
#define GEN_PASS_DEF_MATERIALIZECOPYONWRITEPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

// The resource size that travels with operand `use` of a tied op.
Value getOperandSize(OpOperand &use) {
  Operation *op = use.getOwner();
  if (auto fill = dyn_cast<AsyncFillOp>(op))
    return fill.getTargetSize();
  if (auto update = dyn_cast<AsyncUpdateOp>(op))
    return update.getTargetSize();
  if (auto dispatch = dyn_cast<AsyncDispatchOp>(op))
    return dispatch.getResourceOperandSizes()[use.getOperandNumber() -
                                              dispatch.getResourceOperands()
                                                  .getBeginOperandIndex()];
  if (auto dispatch = dyn_cast<AsyncDispatchEntryOp>(op))
    return dispatch.getResourceOperandSizes()[use.getOperandNumber() -
                                              dispatch.getResourceOperands()
                                                  .getBeginOperandIndex()];
  auto call = cast<AsyncCallOp>(op);
  return call.getResourceOperandSizes()[use.getOperandNumber() -
                                        call.getResourceOperands()
                                            .getBeginOperandIndex()];
}

// Whether something other than `use` may still see the value it writes.
bool needsCopy(OpOperand &use, WritableStorage &storage) {
  Value value = use.get();
  // A fill reads nothing: one of a value that dies here, in storage the
  // program may write, fills that storage (there is no clone for
  // stream-elide-async-copies to remove later).
  if (isa<AsyncFillOp>(use.getOwner()) && isLastUse(use) &&
      storage.isWritable(value))
    return false;
  if (isa<BlockArgument>(value))
    return true;
  // Constants are immutable; imports are the host's until consumed.
  if (isa_and_nonnull<AsyncConstantOp, TensorImportOp>(value.getDefiningOp()))
    return true;
  // A write inside a loop the value comes from outside of runs again on
  // what the previous iteration wrote.
  if (!isLastUse(use))
    return true;
  // Another branch of an scf.if never sees this write.
  for (OpOperand &other : value.getUses())
    if (&other != &use && !areExclusive(other.getOwner(), use.getOwner()))
      return true;
  return false;
}

// The byte size of `value`, as the op that made it names it, or read from
// the resource (a block argument of a region op).
Value getResourceSize(OpBuilder &builder, Location loc, Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return ResourceSizeOp::create(builder, loc, builder.getIndexType(), value);
  return TypeSwitch<Operation *, Value>(def)
      .Case<AsyncAllocaOp, AsyncSplatOp, AsyncConstantOp>(
          [](auto op) { return op.getStorageSize(); })
      .Case<AsyncCloneOp, AsyncTransferOp, AsyncDispatchOp,
            AsyncDispatchEntryOp, TensorImportOp, AsyncSliceOp>(
          [](auto op) { return op.getResultSize(); })
      .Case<AsyncFillOp, AsyncUpdateOp>(
          [](auto op) { return op.getTargetSize(); })
      .Case<AsyncCallOp>([&](AsyncCallOp call) {
        return call.getResultSizes()[cast<OpResult>(value).getResultNumber()];
      })
      .Default([&](Operation *) {
        return ResourceSizeOp::create(builder, loc, builder.getIndexType(),
                                      value);
      });
}

// A value holding what `use.get()` (of `size` bytes) holds, free for `use`
// to write into or to own.
Operation *makeCopy(OpBuilder &builder, OpOperand &use, Value size) {
  Value value = use.get();
  Location loc = use.getOwner()->getLoc();
  Operation *def = value.getDefiningOp();
  // A fill sets every element: what the copy would hold is never read.
  if (isa<AsyncFillOp>(use.getOwner()))
    return AsyncAllocaOp::create(builder, loc, value.getType(), size);
  if (auto alloca = dyn_cast_or_null<AsyncAllocaOp>(def))
    return AsyncAllocaOp::create(builder, loc, value.getType(),
                                 alloca.getStorageSize());
  // A whole fill: fill a fresh alloca again (writes only, reads nothing).
  if (auto fill = dyn_cast_or_null<AsyncFillOp>(def)) {
    auto alloca = AsyncAllocaOp::create(builder, loc, value.getType(),
                                        fill.getTargetSize());
    setAffinity(alloca, getAffinity(use.getOwner()));
    return AsyncFillOp::create(builder, loc, value.getType(), fill.getValue(),
                               alloca, fill.getTargetSize());
  }
  if (auto splat = dyn_cast_or_null<AsyncSplatOp>(def))
    return AsyncSplatOp::create(builder, loc, value.getType(), splat.getValue(),
                                splat.getStorageSize());
  return AsyncCloneOp::create(builder, loc, value.getType(), value, size, size);
}

// Whether passing `use`'s value into a carried position of a region op (a
// loop init, a yield, a condition) needs a copy: the position owns what it
// is passed, so the value must be storage the program may write, passed
// once, as its last use; unless nothing writes either side.
bool passNeedsCopy(OpOperand &use, WritableStorage &storage) {
  Value value = use.get();
  if (isOnlyRead(value))
    return false;
  return llvm::count(use.getOwner()->getOperands(), value) != 1 ||
         !isLastUse(use) || !storage.isWritable(value);
}

struct MaterializeCopyOnWritePass
    : impl::MaterializeCopyOnWritePassBase<MaterializeCopyOnWritePass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    WritableStorage storage(getOperation());
    // Passes into region ops first, outer before inner (a loop's init
    // decides whether its yields may pass its iter_arg on).
    SmallVector<OpOperand *> passes;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<scf::ForOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp>(op))
        return;
      for (OpOperand &use : op->getOpOperands())
        if (isa<ResourceType>(use.get().getType()) && getPassedInto(use))
          passes.push_back(&use);
    });
    for (OpOperand *use : passes) {
      if (!passNeedsCopy(*use, storage))
        continue;
      builder.setInsertionPoint(use->getOwner());
      Location loc = use->getOwner()->getLoc();
      Operation *copy =
          makeCopy(builder, *use, getResourceSize(builder, loc, use->get()));
      // Made where the value lives.
      setAffinity(copy, getEnclosingAffinity(use->get()));
      use->set(copy->getResult(0));
      storage.invalidate();
    }

    SmallVector<OpOperand *> writes;
    getOperation().walk([&](TiedOpInterface op) {
      for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
        if (OpOperand *tied = op.getTiedOperand(i))
          writes.push_back(tied);
    });
    for (OpOperand *use : writes) {
      if (!needsCopy(*use, storage))
        continue;
      builder.setInsertionPoint(use->getOwner());
      Operation *copy = makeCopy(builder, *use, getOperandSize(*use));
      // The copy is made for the writer, on the writer's device.
      setAffinity(copy, getAffinity(use->getOwner()));
      use->set(copy->getResult(0));
    }
  }
};

} // namespace
} // namespace ferry::stream
