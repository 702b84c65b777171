// Removes copies no reader could tell from their source, and copies into a
// resource that are overwritten before anything reads them, so the program
// computes in place. See Passes.td for the rules.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace ferry::stream {
#define GEN_PASS_DEF_ELIDEASYNCCOPIESPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

// The device `value` lives on: that of the op that made it, or for a block
// argument that of its function.
AffinityAttr placementOf(Value value) {
  if (Operation *def = value.getDefiningOp())
    return getAffinity(def);
  auto func = value.getParentRegion()->getParentOfType<func::FuncOp>();
  return func ? getAffinity(func) : nullptr;
}

// A clone, or a transfer that keeps the lifetime and the device: a copy that
// exists only so that one side can be written without the other seeing it.
// (A transfer to another lifetime or device moves the value; it stays.)
bool isPlainCopy(Operation *op) {
  Value source = op->getOperand(0), result = op->getResult(0);
  Value sourceSize = op->getOperand(1), resultSize = op->getOperand(2);
  if (source.getType() != result.getType() || sourceSize != resultSize)
    return false;
  return isa<AsyncCloneOp>(op) || getAffinity(op) == placementOf(source);
}

bool isElidableCopy(Operation *copy, WritableStorage &storage) {
  if (!isPlainCopy(copy))
    return false;
  OpOperand &source = copy->getOpOperand(0);
  // The source dies here: whoever writes the copy may write the source.
  if (isLastUse(source) && storage.isWritable(source.get()))
    return true;
  // Nobody writes either side: their readers can share one storage.
  return isOnlyRead(source.get()) && isOnlyRead(copy->getResult(0));
}

// Whether the byte range [offset, offset + size) of `outer` contains that of
// `inner`: the same offset and a size at least as large, or constants that
// say so.
bool covers(Value outerOffset, Value outerSize, Value innerOffset,
            Value innerSize) {
  std::optional<int64_t> o1 = getConstantIntValue(outerOffset);
  std::optional<int64_t> s1 = getConstantIntValue(outerSize);
  std::optional<int64_t> o2 = getConstantIntValue(innerOffset);
  std::optional<int64_t> s2 = getConstantIntValue(innerSize);
  if (o1 && s1 && o2 && s2)
    return *o1 <= *o2 && *o2 + *s2 <= *o1 + *s1;
  return outerOffset == innerOffset &&
         (outerSize == innerSize || (s1 && s2 && *s1 >= *s2));
}

// Whether every byte `update` writes is written again before anything reads
// it: its result's only use is the target of a fill (which writes it all) or
// of an update whose range contains this one's.
bool isOverwritten(AsyncUpdateOp update) {
  Value result = update.getResult();
  if (!result.hasOneUse())
    return false;
  OpOperand &use = *result.getUses().begin();
  if (auto fill = dyn_cast<AsyncFillOp>(use.getOwner()))
    return &use == &fill.getTargetMutable();
  auto next = dyn_cast<AsyncUpdateOp>(use.getOwner());
  return next && &use == &next.getTargetMutable() &&
         covers(next.getTargetOffset(), next.getUpdateSize(),
                update.getTargetOffset(), update.getUpdateSize());
}

// How many loops run `op` again: a copy there costs one per iteration.
unsigned loopDepth(Operation *op) {
  unsigned depth = 0;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    depth += isa<LoopLikeOpInterface>(parent);
  return depth;
}

// Removes `op`, whose result holds what `replacement` holds.
void elide(Operation *op, Value replacement) {
  op->getResult(0).replaceAllUsesWith(replacement);
  op->erase();
}

struct ElideAsyncCopiesPass
    : impl::ElideAsyncCopiesPassBase<ElideAsyncCopiesPass> {
  void runOnOperation() override {
    WritableStorage storage(getOperation());
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<Operation *> copies;
      getOperation().walk([&](Operation *op) {
        if (isa<AsyncCloneOp, AsyncTransferOp, AsyncUpdateOp>(op))
          copies.push_back(op);
      });
      // Copies in loops first: removing one can keep another (a loop's
      // copy of a value read after it, made once on entry, is read-only
      // only while the body copies what it writes), and a copy made every
      // iteration costs more than one made once before the loop.
      llvm::stable_sort(copies, [](Operation *a, Operation *b) {
        return loopDepth(a) > loopDepth(b);
      });
      for (Operation *op : copies) {
        if (auto update = dyn_cast<AsyncUpdateOp>(op)) {
          if (!isOverwritten(update))
            continue;
          elide(update, update.getTarget());
        } else {
          if (!isElidableCopy(op, storage))
            continue;
          elide(op, op->getOperand(0));
        }
        storage.invalidate();
        changed = true;
      }
    }
  }
};

} // namespace
} // namespace ferry::stream
