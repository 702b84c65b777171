// Removes clones whose source is never used afterwards, so the clone's
// users write into the source directly. See Passes.td for the rules.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

namespace ferry::stream {
#define GEN_PASS_DEF_ELIDEASYNCCOPIESPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

bool isElidable(AsyncCloneOp clone, WritableStorage &storage) {
  return clone.getSource().getType() == clone.getResult().getType() &&
         isLastUse(clone.getSourceMutable()) &&
         storage.isWritable(clone.getSource());
}

struct ElideAsyncCopiesPass
    : impl::ElideAsyncCopiesPassBase<ElideAsyncCopiesPass> {
  void runOnOperation() override {
    WritableStorage storage(getOperation());
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<AsyncCloneOp> clones;
      getOperation().walk([&](AsyncCloneOp clone) { clones.push_back(clone); });
      for (AsyncCloneOp clone : clones) {
        if (!isElidable(clone, storage))
          continue;
        clone.getResult().replaceAllUsesWith(clone.getSource());
        clone.erase();
        storage.invalidate();
        changed = true;
      }
    }
  }
};

} // namespace
} // namespace ferry::stream
