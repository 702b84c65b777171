// Workgroup-level tile and fuse of a dispatch function's tensor body
// (DistributeWorkgroups.h).
#include "compiler/Codegen/DistributeWorkgroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace ferry::codegen {

LogicalResult distributeOverWorkgroups(func::FuncOp body,
                                       const EntryLayout &layout) {
  if (layout.workgroups.tileSize == 0)
    return success();
  bufferization::MaterializeInDestinationOp store;
  body.walk([&](bufferization::MaterializeInDestinationOp op) {
    if (!store)
      store = op;
  });
  if (!store)
    return body.emitOpError("has no result to distribute over workgroups");
  auto root = store.getSource().getDefiningOp<TilingInterface>();
  if (!root)
    return store.emitOpError(
        "dispatch result is not computed by a tileable op");

  MLIRContext *context = body.getContext();
  IRRewriter rewriter(context);
  SmallVector<OpFoldResult> tiles(root.getLoopIteratorTypes().size(),
                                  rewriter.getIndexAttr(0));
  tiles[layout.workgroups.loop] =
      rewriter.getIndexAttr(layout.workgroups.tileSize);
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(tiles).setLoopType(
      scf::SCFTilingOptions::LoopType::ForOp);
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(tiled) || tiled->loops.empty())
    return root->emitOpError("could not be tiled over workgroups");
  for (OpResult result : root->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  // Fusion clones the `to_tensor` of a binding into the loop; one
  // `restrict` view per binding is what bufferization allows.
  llvm::DenseMap<Value, Value> views;
  body.walk([&](bufferization::ToTensorOp view) {
    auto [it, inserted] = views.try_emplace(view.getBuffer(), view.getResult());
    if (!inserted)
      rewriter.replaceOp(view, it->second);
  });
  // Dead slices and index arithmetic the fusion leaves (not the result's
  // materialize_in_destination, which has no uses but stays).
  SmallVector<Operation *> ops;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    ops.push_back(op);
    return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                     : WalkResult::advance();
  });
  for (Operation *op : llvm::reverse(ops))
    if (!isa<bufferization::MaterializeInDestinationOp>(op) &&
        isOpTriviallyDead(op))
      rewriter.eraseOp(op);
  // Tile `workgroup_id + k * workgroup_count` in each workgroup.
  auto loop = cast<scf::ForOp>(tiled->loops.front().getOperation());
  unsigned numArgs = body.getNumArguments();
  Value workgroupId = body.getArgument(numArgs - 2);
  Value workgroupCount = body.getArgument(numArgs - 1);
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  Value offset =
      arith::MulIOp::create(rewriter, loc, workgroupId, loop.getStep());
  Value lowerBound =
      arith::AddIOp::create(rewriter, loc, loop.getLowerBound(), offset);
  Value step =
      arith::MulIOp::create(rewriter, loc, loop.getStep(), workgroupCount);
  rewriter.modifyOpInPlace(loop, [&] {
    loop.setLowerBound(lowerBound);
    loop.setStep(step);
    loop->setAttr(kWorkgroupLoopAttr, UnitAttr::get(context));
  });
  return success();
}

} // namespace ferry::codegen
