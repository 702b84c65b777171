// Ties elementwise dispatch results to operands that die at the dispatch, and
// hands a dying input's storage to calls whose callee may write its output
// over it, so kernels write in place instead of into a new allocation. See
// Passes.td.

#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"
#include "compiler/Utils/ABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

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

// Gives `result` (written into `operand`'s storage from now on) and the
// operand one type: a decided lifetime wins. Either side's whole storage
// chain follows, in-place writers into the result included (a fill of it
// must keep its target's type).
void unifyStorageTypes(Value operand, Value result) {
  if (hasLifetime(operand, Lifetime::Unknown))
    retypeStorageChain(operand, result.getType());
  else
    retypeStorageChain(result, operand.getType());
}

// A call result tied to a fresh `stream.async.alloca` used by nothing else
// (a `tensor.empty` the callee fills) can take the storage of an untied
// input of the same size that dies at the call, if the callee declares that
// its tied outputs may alias its inputs. The alloca is then dead.
void reuseInputForTiedOutputs(AsyncCallOp call, WritableStorage &storage) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee->hasAttr(kTiedMayAliasAttr))
    return;
  std::optional<ArrayRef<int64_t>> ties = call.getTiedOperands();
  if (!ties)
    return;
  OperandRange operands = call.getResourceOperands();
  OperandRange sizes = call.getResourceOperandSizes();
  llvm::SmallDenseSet<int64_t> tied(ties->begin(), ties->end());
  llvm::SmallDenseSet<Value> taken;
  for (auto [resultIndex, tiedIndex] : llvm::enumerate(*ties)) {
    if (tiedIndex < 0)
      continue;
    Value empty = operands[tiedIndex];
    auto alloca = empty.getDefiningOp<AsyncAllocaOp>();
    if (!alloca || !empty.hasOneUse())
      continue;
    for (auto [index, input] : llvm::enumerate(operands)) {
      OpOperand &use = call.getResourceOperandsMutable()[index];
      if (tied.contains(index) || taken.contains(input) ||
          sizes[index] != sizes[tiedIndex] || !isLastUse(use) ||
          !compatibleLifetimes(input, empty) || !storage.isWritable(input))
        continue;
      unifyStorageTypes(input, call.getResult(resultIndex));
      call.getResourceOperandsMutable()[tiedIndex].set(input);
      alloca.erase();
      taken.insert(input);
      storage.invalidate();
      break;
    }
  }
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
      unifyStorageTypes(dispatch.getResourceOperands()[index],
                        dispatch.getResult());
      SmallVector<int64_t> ties = {index};
      dispatch.setTiedOperandsAttr(DenseI64ArrayAttr::get(&getContext(), ties));
      storage.invalidate();
    });
    getOperation().walk(
        [&](AsyncCallOp call) { reuseInputForTiedOutputs(call, storage); });
  }
};

} // namespace
} // namespace ferry::stream
