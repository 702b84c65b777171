// Ties elementwise dispatch results to operands that die at the dispatch, so
// the kernel writes in place instead of into a new allocation. See Passes.td.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace ferry::stream {
#define GEN_PASS_DEF_REUSEOPERANDSTORAGEPASS
#include "compiler/Dialect/Stream/Transforms/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

bool hasLifetime(Value value, Lifetime lifetime) {
  return cast<ResourceType>(value.getType()).getLifetime() == lifetime;
}

// Whether the dispatch result may take the operand's type: equal, or one of
// them still undecided ('*') while the other is decided.
bool compatibleLifetimes(Value operand, Value result) {
  return operand.getType() == result.getType() ||
         hasLifetime(operand, Lifetime::Unknown) ||
         hasLifetime(result, Lifetime::Unknown);
}

// The operand the result of `dispatch` can be written into, or -1.
int64_t findReusableOperand(AsyncDispatchOp dispatch,
                            WritableStorage &storage) {
  for (auto [index, operand, size] :
       llvm::enumerate(dispatch.getResourceOperands(),
                       dispatch.getResourceOperandSizes())) {
    OpOperand &use = dispatch.getResourceOperandsMutable()[index];
    if (size == dispatch.getResultSize() && isLastUse(use) &&
        compatibleLifetimes(operand, dispatch.getResult()) &&
        storage.isWritable(operand))
      return index;
  }
  return -1;
}

struct ReuseOperandStoragePass
    : impl::ReuseOperandStoragePassBase<ReuseOperandStoragePass> {
  void runOnOperation() override {
    WritableStorage storage(getOperation());
    getOperation().walk([&](AsyncDispatchOp dispatch) {
      if (dispatch.getTiedOperands())
        return;
      int64_t index = findReusableOperand(dispatch, storage);
      if (index < 0)
        return;
      Value operand = dispatch.getResourceOperands()[index];
      Value result = dispatch.getResult();
      // The storage is one from now on: a decided lifetime wins.
      if (hasLifetime(operand, Lifetime::Unknown))
        retypeStorageChain(operand, result.getType());
      else
        result.setType(operand.getType());
      SmallVector<int64_t> ties = {index};
      dispatch.setTiedOperandsAttr(DenseI64ArrayAttr::get(&getContext(), ties));
      storage.invalidate();
    });
  }
};

} // namespace
} // namespace ferry::stream
