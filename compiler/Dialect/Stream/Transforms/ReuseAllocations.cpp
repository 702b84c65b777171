// Hands memory freed by a dealloca to a later alloca of the same size,
// lifetime and affinity, so the program stops allocating in steady state.
// See Passes.td for the rules.

#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace ferry::stream {
#define GEN_PASS_DEF_REUSEALLOCATIONSPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

bool sameSize(Value a, Value b) {
  if (a == b)
    return true;
  APInt lhs, rhs;
  return matchPattern(a, m_ConstantInt(&lhs)) &&
         matchPattern(b, m_ConstantInt(&rhs)) && lhs == rhs;
}

// A dealloca whose memory can go to someone else: unconditional, of an
// allocation the program made.
ResourceAllocaOp getRecyclableAllocation(ResourceDeallocaOp dealloca) {
  if (dealloca.getCondition() || !dealloca.getAwaitTimepoint())
    return {};
  auto alloca = dealloca.getOperand().getDefiningOp<ResourceAllocaOp>();
  if (!alloca || alloca.getIndeterminate())
    return {};
  return alloca;
}

bool isCompatible(ResourceAllocaOp freed, ResourceAllocaOp wanted) {
  return !wanted.getAwaitTimepoint() && !wanted.getIndeterminate() &&
         freed.getResult().getType() == wanted.getResult().getType() &&
         sameSize(freed.getStorageSize(), wanted.getStorageSize()) &&
         getAffinity(freed) == getAffinity(wanted);
}

// `wanted` takes the memory `dealloca` frees.
void recycle(ResourceDeallocaOp dealloca, ResourceAllocaOp freed,
             ResourceAllocaOp wanted) {
  Value storage = freed.getResult();
  Value ready = dealloca.getAwaitTimepoint();
  wanted.getResultTimepoint().replaceAllUsesWith(ready);
  dealloca.getResultTimepoint().replaceAllUsesWith(ready);
  bool preferOrigin = dealloca.getPreferOrigin();
  dealloca.erase();
  wanted.getResult().replaceAllUsesWith(storage);
  wanted.erase();
  // The memory keeps its first placement.
  if (preferOrigin)
    for (Operation *user : storage.getUsers())
      if (auto later = dyn_cast<ResourceDeallocaOp>(user))
        later.setPreferOrigin(true);
}

void reuseInBlock(Block &block) {
  // Freed allocations waiting for a taker, in program order.
  SmallVector<std::pair<ResourceDeallocaOp, ResourceAllocaOp>> pool;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto dealloca = dyn_cast<ResourceDeallocaOp>(&op)) {
      if (ResourceAllocaOp freed = getRecyclableAllocation(dealloca))
        pool.push_back({dealloca, freed});
      continue;
    }
    auto wanted = dyn_cast<ResourceAllocaOp>(&op);
    if (!wanted)
      continue;
    auto it = llvm::find_if(
        pool, [&](auto &entry) { return isCompatible(entry.second, wanted); });
    if (it == pool.end())
      continue;
    auto [dealloca, freed] = *it;
    pool.erase(it);
    recycle(dealloca, freed, wanted);
  }
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
