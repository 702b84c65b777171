// analyzeDispatchFunction: the bindings, ties, push constants and workgroup
// count of a dispatch function (ExecutableCompiler.h). The host lowering and
// the code generator both read it, so they agree on the layout.
#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Codegen/TileAndVectorize.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;

namespace ferry::codegen {

namespace {

/// Work a workgroup should get at least (loop iterations), so that the call
/// per workgroup is noise. Tile sizes are chosen from it.
constexpr int64_t kWorkPerWorkgroup = 16384;
constexpr int64_t kMaxTile = 4096;

/// The argument whose storage `value` is written into, following the
/// destination operands of destination-style ops.
BlockArgument traceDestination(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!dps)
      return {};
    value = dps.getTiedOpOperand(result)->get();
  }
  return dyn_cast<BlockArgument>(value);
}

/// Whether the destination operand `init` has its old contents read.
bool readsDestination(OpOperand &init) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(init.getOwner()))
    return linalgOp.payloadUsesValueFromOperand(&init);
  return true;
}

/// Splits the loops of the op computing the result (with several linalg ops,
/// the others are fused into its tiles: DistributeWorkgroups.cpp).
WorkgroupCount chooseWorkgroups(func::FuncOp func) {
  WorkgroupCount count;
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (ret.getNumOperands() != 1)
    return count;
  auto op = ret.getOperand(0).getDefiningOp<linalg::LinalgOp>();
  if (!op)
    return count;
  // A destination indexed by more than loops (a strided slice's copy
  // kernel writes rows offset + i * stride) has no tile that is a slice of
  // it: one workgroup.
  if (!llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return op.getMatchingIndexingMap(&init).isProjectedPermutation();
      }))
    return count;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // The outermost parallel loop of more than one iteration: a batch of one
  // (an NHWC convolution on one image) leaves the rows to split.
  std::optional<unsigned> split;
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (iterators[loop] == utils::IteratorType::parallel && range != 1) {
      split = loop;
      break;
    }
  }
  if (!split)
    return count;
  // The work of one iteration of the split loop: every linalg op of the
  // function is computed tile by tile with it (fused producers included).
  auto extent = [](int64_t range) {
    return ShapedType::isDynamic(range) ? 64 : std::max<int64_t>(range, 1);
  };
  int64_t work = 0;
  func.walk([&](linalg::LinalgOp member) {
    int64_t opWork = 1;
    for (int64_t range : member.getStaticLoopRanges())
      opWork = std::min<int64_t>(opWork * extent(range), int64_t(1) << 40);
    work += opWork;
  });
  int64_t otherWork = std::max<int64_t>(work / extent(ranges[*split]), 1);
  int64_t tile =
      std::clamp<int64_t>(kWorkPerWorkgroup / otherWork, 1, kMaxTile);
  // The ops fused into the tiles are tiled with the same rows: a matmul
  // producer (a layer's matmul under its bias and activation) wants its
  // workgroups as tall as when it is the root.
  func.walk([&](linalg::LinalgOp member) {
    if (member == op || *split != 0)
      return;
    SmallVector<int64_t> memberRanges = member.getStaticLoopRanges();
    if (!memberRanges.empty() && memberRanges[0] == ranges[0])
      tile = adjustWorkgroupTile(member, tile);
  });
  tile = adjustWorkgroupTile(op, tile);

  if (!ShapedType::isDynamic(ranges[*split])) {
    count.loop = *split;
    count.tileSize = tile;
    count.staticExtent = ranges[*split];
    return count;
  }
  // The extent of the loop is a dimension of an operand that is an argument.
  for (OpOperand &operand : op->getOpOperands()) {
    auto arg = dyn_cast<BlockArgument>(operand.get());
    if (!arg || arg.getOwner() != &func.getBody().front())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [position, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || dim.getPosition() != *split)
        continue;
      count.loop = *split;
      count.tileSize = tile;
      count.bindingIndex = arg.getArgNumber();
      count.dimIndex = position;
      return count;
    }
  }
  // Else the dimension of the destination the result is written into.
  OpOperand *init = op.getDpsInitOperand(0);
  BlockArgument destination = traceDestination(op->getResult(0));
  if (!destination || destination.getOwner() != &func.getBody().front())
    return count;
  for (auto [position, expr] :
       llvm::enumerate(op.getMatchingIndexingMap(init).getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != *split)
      continue;
    count.loop = *split;
    count.tileSize = tile;
    count.bindingIndex = destination.getArgNumber();
    count.dimIndex = position;
    return count;
  }
  return count;
}

} // namespace

FailureOr<EntryLayout> analyzeDispatchFunction(func::FuncOp func) {
  EntryLayout layout;
  layout.name = func.getSymName().str();
  layout.copyKernel = func->hasAttr(kCopyKernelAttr);
  if (func.isExternal())
    return func.emitOpError("dispatch function has no body");
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("dispatch function must be one block");
  layout.bindingAccess.assign(func.getNumArguments(), 0);
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return func.emitOpError("dispatch argument ")
             << arg.getArgNumber() << " is " << arg.getType()
             << ", not a ranked tensor";
    layout.pushConstantCount += type.getNumDynamicDims();
  }

  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [index, result] : llvm::enumerate(ret.getOperands())) {
    BlockArgument arg = traceDestination(result);
    if (auto destination =
            func.getResultAttrOfType<IntegerAttr>(index, kDestinationAttr)) {
      if (destination.getInt() < 0 ||
          destination.getInt() >= func.getNumArguments())
        return ret.emitOpError("dispatch result ")
               << index << " names destination argument "
               << destination.getInt() << " of " << func.getNumArguments();
      arg = func.getArgument(destination.getInt());
    }
    // A result that is another argument as it is gets copied: a read.
    if (auto returned = dyn_cast<BlockArgument>(result);
        returned && returned != arg &&
        returned.getOwner() == &func.getBody().front())
      layout.bindingAccess[returned.getArgNumber()] |= kAccessRead;
    if (!arg || arg.getOwner() != &func.getBody().front())
      return ret.emitOpError("dispatch result ")
             << index
             << " is not written into an argument (its destination operands "
                "do not lead to one)";
    if (arg.getType() != result.getType())
      return ret.emitOpError("dispatch result ")
             << index << " has type " << result.getType()
             << ", its destination argument " << arg.getArgNumber() << " "
             << arg.getType();
    if (llvm::is_contained(layout.resultBindings, arg.getArgNumber()))
      return ret.emitOpError("dispatch results share destination argument ")
             << arg.getArgNumber();
    layout.resultBindings.push_back(arg.getArgNumber());
    layout.bindingAccess[arg.getArgNumber()] |= kAccessWrite;
  }

  // Reads: any use other than as a destination whose contents are not read.
  for (BlockArgument arg : func.getArguments()) {
    for (OpOperand &use : arg.getUses()) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
      if (dps && dps.isDpsInit(&use) && !readsDestination(use))
        continue;
      if (isa<func::ReturnOp>(use.getOwner()))
        continue;
      layout.bindingAccess[arg.getArgNumber()] |= kAccessRead;
    }
    // An argument nothing touches is still a binding; call it read.
    if (layout.bindingAccess[arg.getArgNumber()] == 0)
      layout.bindingAccess[arg.getArgNumber()] = kAccessRead;
    // A copy kernel's 0-d inputs are its scalars (a slice's dynamic offsets
    // and strides; the slice itself is never 0-d: that one is contiguous),
    // not elements it moves.
    if (layout.copyKernel &&
        cast<RankedTensorType>(arg.getType()).getRank() == 0 &&
        layout.bindingAccess[arg.getArgNumber()] == kAccessRead)
      layout.bindingAccess[arg.getArgNumber()] |= kAccessParameter;
  }
  layout.workgroups = chooseWorkgroups(func);
  return layout;
}

} // namespace ferry::codegen
