// Ties elementwise dispatch results to operands that die at the dispatch
// (built-in kernels, and native elementwise dispatches, whose executable then
// reads the operand as its destination), and hands a dying input's storage to
// calls whose callee may write its output over it, so kernels write in place
// instead of into a new allocation. See Passes.td.

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Transforms/Passes.h"
#include "compiler/Utils/ABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
void reuseInputForTiedOutputs(AsyncCallOp call, WritableStorage &storage,
                              SymbolTableCollection &symbols) {
  auto callee =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
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

// The one linalg.generic of dispatch function `func` when it is elementwise
// (all loops parallel, every indexing map the identity or a 0-d input's) and
// writes its result into argument `destination`, which it does not read, and
// every other argument is only an input of it; else null.
linalg::GenericOp getElementwiseBody(func::FuncOp func, int64_t destination) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return nullptr;
  Block &block = func.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
  if (!ret || ret.getNumOperands() != 1)
    return nullptr;
  auto generic = ret.getOperand(0).getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getBlock() != &block ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      // A 0-d input (a scalar the body reads) is read whole everywhere;
      // it cannot be the one written over: its type is not the result's.
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) {
                      return map.isIdentity() || map.getNumResults() == 0;
                    }) ||
      generic.getDpsInits()[0] != func.getArgument(destination) ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return nullptr;
  for (BlockArgument arg : func.getArguments())
    for (OpOperand &use : arg.getUses())
      if (use.getOwner() != generic.getOperation())
        return nullptr;
  return generic;
}

// A native elementwise dispatch whose destination is a fresh
// `stream.async.alloca` used by nothing else (a `tensor.empty`) writes into
// an input of the destination's type and size that dies there instead
// (linalg destination style: that input becomes its `outs`). The executable
// is rewritten to match: the payload reads the destination where it read
// the input, and the input's bindings (every position the operand was
// passed in) and their push constants go, so no two bindings alias. The
// alloca is then dead. Only an executable this dispatch alone runs is
// rewritten.
void reuseInputForEntry(AsyncDispatchEntryOp dispatch,
                        const llvm::DenseMap<Attribute, unsigned> &entryUses,
                        WritableStorage &storage,
                        SymbolTableCollection &symbols) {
  ArrayRef<int64_t> ties = dispatch.getTiedOperands();
  if (ties.size() != 1 || ties[0] < 0 ||
      entryUses.lookup(dispatch.getEntryAttr()) != 1)
    return;
  int64_t destination = ties[0];
  OperandRange operands = dispatch.getResourceOperands();
  OperandRange sizes = dispatch.getResourceOperandSizes();
  Value empty = operands[destination];
  auto alloca = empty.getDefiningOp<AsyncAllocaOp>();
  if (!alloca || !empty.hasOneUse())
    return;
  auto func = symbols.lookupNearestSymbolFrom<func::FuncOp>(
      dispatch, dispatch.getEntryAttr());
  if (!func || func.getNumArguments() != operands.size())
    return;
  linalg::GenericOp generic = getElementwiseBody(func, destination);
  if (!generic)
    return;
  // A result only copied into a resource: when that resource is whole one
  // of the operands and nothing reads it after the dispatch, the dispatch
  // writes there (the operand is its destination, the update goes: a
  // function result tied to an argument, acc = acc + x). Otherwise
  // stream-schedule-allocation may make the result in place in the target
  // (it emplaces a fresh alloca's writer): no allocation and no copy,
  // better than any operand's storage.
  Value result = dispatch.getResult();
  AsyncUpdateOp update;
  if (result.hasOneUse() &&
      (update = dyn_cast<AsyncUpdateOp>(*result.user_begin()))) {
    Value target = update.getTarget();
    std::optional<int64_t> offset =
        getConstantIntValue(update.getTargetOffset());
    bool onlyUpdated = llvm::all_of(target.getUsers(), [&](Operation *user) {
      return user == update || user == dispatch ||
             (user->getBlock() == dispatch->getBlock() &&
              user->isBeforeInBlock(dispatch));
    });
    if (!offset || *offset != 0 || !onlyUpdated ||
        update.getTargetSize() != sizes[destination] ||
        update.getUpdate() != result)
      return;
  }
  Type destinationType = func.getArgument(destination).getType();
  Value input;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    OpOperand &use = dispatch.getResourceOperandsMutable()[index];
    if (update && operand != update.getTarget())
      continue;
    if (int64_t(index) == destination ||
        func.getArgument(index).getType() != destinationType ||
        sizes[index] != sizes[destination] || (!update && !isLastUse(use)) ||
        !compatibleLifetimes(operand, dispatch.getResult()) ||
        !storage.isWritable(operand) ||
        // A slice read in place is a view; written, it would be a copy.
        operand.getDefiningOp<AsyncSliceOp>())
      continue;
    input = operand;
    break;
  }
  if (!input)
    return;

  // The executable: every input that was `input` reads the destination.
  Block &body = generic.getRegion().front();
  BlockArgument out = body.getArgument(generic.getNumDpsInputs());
  llvm::BitVector dropInputs(generic.getNumDpsInputs());
  SmallVector<Value> keptInputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *operand : generic.getDpsInputOperands()) {
    auto arg = cast<BlockArgument>(operand->get());
    if (operands[arg.getArgNumber()] == input) {
      body.getArgument(operand->getOperandNumber()).replaceAllUsesWith(out);
      dropInputs.set(operand->getOperandNumber());
      continue;
    }
    keptInputs.push_back(operand->get());
    maps.push_back(generic.getMatchingIndexingMap(operand));
  }
  maps.push_back(generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)));
  body.eraseArguments(dropInputs);
  generic.getInputsMutable().assign(keptInputs);
  generic.setIndexingMapsAttr(
      Builder(generic.getContext()).getAffineMapArrayAttr(maps));

  // The function and the dispatch lose the input's bindings, and their
  // push constants (each binding's dynamic dims, in binding order).
  llvm::BitVector dropArgs(func.getNumArguments());
  SmallVector<std::pair<unsigned, unsigned>> dropConstants; // start, count
  unsigned constant = 0;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    unsigned dims = cast<RankedTensorType>(func.getArgument(index).getType())
                        .getNumDynamicDims();
    if (operand == input) {
      dropArgs.set(index);
      dropConstants.push_back({constant, dims});
    }
    constant += dims;
  }
  int64_t newDestination = destination;
  for (int64_t index = 0; index < destination; ++index)
    newDestination -= dropArgs.test(index);
  (void)func.eraseArguments(dropArgs);
  func.setResultAttr(
      0, codegen::kDestinationAttr,
      Builder(func.getContext()).getI64IntegerAttr(newDestination));

  // Only these answers change: the dispatch's result is now made from
  // `input`, which is still last used at the dispatch, and the alloca and
  // update go. Forgetting everything made the pass quadratic on long
  // chains of elementwise ops.
  SmallVector<Value> changed = {input, dispatch.getResult(), empty};
  if (update)
    changed.push_back(update.getResult());
  storage.forget(changed);
  unifyStorageTypes(input, dispatch.getResult());
  dispatch.getResourceOperandsMutable()[destination].set(input);
  for (int64_t index = operands.size() - 1; index >= 0; --index) {
    if (!dropArgs.test(index))
      continue;
    dispatch.getResourceOperandsMutable().erase(index);
    dispatch.getResourceOperandSizesMutable().erase(index);
  }
  for (auto [start, count] : llvm::reverse(dropConstants))
    if (count)
      dispatch.getPushConstantsMutable().erase(start, count);
  dispatch.setTiedOperandsAttr(
      DenseI64ArrayAttr::get(dispatch.getContext(), {newDestination}));
  alloca.erase();
  if (update) {
    update.getResult().replaceAllUsesWith(dispatch.getResult());
    update.erase();
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
    llvm::DenseMap<Attribute, unsigned> entryUses;
    getOperation().walk(
        [&](AsyncDispatchEntryOp entry) { ++entryUses[entry.getEntryAttr()]; });
    // Collected first: a rewrite may erase the update after the dispatch.
    SmallVector<AsyncDispatchEntryOp> entries;
    getOperation().walk(
        [&](AsyncDispatchEntryOp entry) { entries.push_back(entry); });
    // One symbol table per module, built once: a lookup scanning the
    // module per dispatch made the pass quadratic (50,000 dispatches).
    SymbolTableCollection symbols;
    for (AsyncDispatchEntryOp entry : entries)
      reuseInputForEntry(entry, entryUses, storage, symbols);
    getOperation().walk([&](AsyncCallOp call) {
      reuseInputForTiedOutputs(call, storage, symbols);
    });
  }
};

} // namespace
} // namespace ferry::stream
