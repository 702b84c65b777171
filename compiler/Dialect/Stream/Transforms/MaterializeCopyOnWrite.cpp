// Copies a value before an op writes into it, where anything else may still
// see the value. See Passes.td for the rules.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

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
  for (OpOperand &other : value.getUses())
    if (&other != &use)
      return true;
  return false;
}

// A value holding what `value` holds, free for `use` to write into.
Operation *makeCopy(OpBuilder &builder, OpOperand &use) {
  Value value = use.get();
  Location loc = use.getOwner()->getLoc();
  Value size = getOperandSize(use);
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

struct MaterializeCopyOnWritePass
    : impl::MaterializeCopyOnWritePassBase<MaterializeCopyOnWritePass> {
  void runOnOperation() override {
    SmallVector<OpOperand *> writes;
    getOperation().walk([&](TiedOpInterface op) {
      for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
        if (OpOperand *tied = op.getTiedOperand(i))
          writes.push_back(tied);
    });
    OpBuilder builder(&getContext());
    WritableStorage storage(getOperation());
    for (OpOperand *use : writes) {
      if (!needsCopy(*use, storage))
        continue;
      builder.setInsertionPoint(use->getOwner());
      Operation *copy = makeCopy(builder, *use);
      // The copy is made for the writer, on the writer's device.
      setAffinity(copy, getAffinity(use->getOwner()));
      use->set(copy->getResult(0));
    }
  }
};

} // namespace
} // namespace ferry::stream
