// Hands memory freed by a dealloca to a later alloca of the same size,
// lifetime and affinity, so the program stops allocating in steady state.
// See Passes.td for the rules.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <deque>
#include <tuple>

namespace ferry::stream {
#define GEN_PASS_DEF_REUSEALLOCATIONSPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

// What an alloca must share with a freed allocation to take its memory:
// resource type, affinity and size (a constant's value, else the size
// value itself).
using AllocationKey = std::tuple<Type, Attribute, Value, int64_t>;

AllocationKey keyOf(ResourceAllocaOp alloca) {
  Value size = alloca.getStorageSize();
  APInt constant;
  if (matchPattern(size, m_ConstantInt(&constant)))
    return {alloca.getResult().getType(), getAffinity(alloca), Value(),
            constant.getSExtValue()};
  return {alloca.getResult().getType(), getAffinity(alloca), size, 0};
}

// A dealloca whose memory can go to someone else: unconditional, of an
// allocation the program made in the same block. (A free in a loop body of
// memory allocated outside it, or a carried value, runs once per iteration:
// handed on, it would be freed again.)
ResourceAllocaOp getRecyclableAllocation(ResourceDeallocaOp dealloca) {
  if (dealloca.getCondition() || !dealloca.getAwaitTimepoint())
    return {};
  auto alloca = dealloca.getOperand().getDefiningOp<ResourceAllocaOp>();
  if (!alloca || alloca.getIndeterminate() ||
      alloca->getBlock() != dealloca->getBlock())
    return {};
  return alloca;
}

// `wanted` takes the memory `dealloca` frees. Returns whether the memory
// was placed on its origin device (its later deallocas must say so too).
bool recycle(ResourceDeallocaOp dealloca, ResourceAllocaOp freed,
             ResourceAllocaOp wanted) {
  Value ready = dealloca.getAwaitTimepoint();
  wanted.getResultTimepoint().replaceAllUsesWith(ready);
  dealloca.getResultTimepoint().replaceAllUsesWith(ready);
  bool preferOrigin = dealloca.getPreferOrigin();
  dealloca.erase();
  wanted.getResult().replaceAllUsesWith(freed.getResult());
  wanted.erase();
  return preferOrigin;
}

// One pass over the block, a hash lookup per alloca: memory recycled
// again and again in a long chain costs nothing per earlier use. Memory is
// handed on only within one block, where the free is issued before the
// alloca in program order: never from a region body to an alloca outside
// it, in another branch or in a later iteration (each nested block is a
// pool of its own).
void reuseInBlock(Block &block) {
  // Freed allocations waiting for a taker, oldest first, per key.
  llvm::DenseMap<AllocationKey,
                 std::deque<std::pair<ResourceDeallocaOp, ResourceAllocaOp>>>
      pool;
  // Memory first placed on its origin device keeps that placement.
  llvm::SetVector<Value> originPlaced;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto dealloca = dyn_cast<ResourceDeallocaOp>(&op)) {
      if (ResourceAllocaOp freed = getRecyclableAllocation(dealloca))
        pool[keyOf(freed)].push_back({dealloca, freed});
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        reuseInBlock(nested);
    auto wanted = dyn_cast<ResourceAllocaOp>(&op);
    if (!wanted || wanted.getAwaitTimepoint() || wanted.getIndeterminate())
      continue;
    auto it = pool.find(keyOf(wanted));
    if (it == pool.end() || it->second.empty())
      continue;
    auto [dealloca, freed] = it->second.front();
    it->second.pop_front();
    if (recycle(dealloca, freed, wanted))
      originPlaced.insert(freed.getResult());
  }
  for (Value storage : originPlaced)
    for (Operation *user : storage.getUsers())
      if (auto later = dyn_cast<ResourceDeallocaOp>(user))
        later.setPreferOrigin(true);
}

struct ReuseAllocationsPass
    : impl::ReuseAllocationsPassBase<ReuseAllocationsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isDeclaration() && func.getBody().hasOneBlock())
        reuseInBlock(func.getBody().front());
  }
};

} // namespace
} // namespace ferry::stream
