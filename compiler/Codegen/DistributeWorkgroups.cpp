// Workgroup-level tile and fuse of a dispatch function's tensor body
// (DistributeWorkgroups.h).
#include "compiler/Codegen/DistributeWorkgroups.h"
#include "compiler/Codegen/GuardHeapTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace ferry::codegen {

namespace {

/// Rewrites each `tensor.dim` of a linalg op's result as one of its
/// destination, and a dim of a `tensor.empty` as its size. The workgroup
/// loop's bound is a dimension of an operand of the root; when that operand
/// is a fused producer's result (of a dynamic size), the dim kept the
/// untiled producer alive: computed whole in every workgroup, besides its
/// tiles inside the loop.
LogicalResult resolveDims(func::FuncOp body) {
  SmallVector<Operation *> dims;
  body.walk([&](tensor::DimOp dim) { dims.push_back(dim); });
  if (dims.empty())
    return success();
  MLIRContext *context = body.getContext();
  RewritePatternSet patterns(context);
  tensor::DimOp::getCanonicalizationPatterns(patterns, context);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(dims, std::move(patterns), config);
}

/// Gives each fused producer in `loop` a destination of its tile's size.
/// Fusion makes it a slice of the `tensor.empty` of the whole intermediate,
/// which bufferized to a buffer of the whole intermediate in every
/// workgroup. It becomes a slice of an empty tensor of the largest tile
/// instead. Where every size has a constant bound (the loop's tile size,
/// for the last tile's `affine.min`) and those make a buffer that fits on
/// the stack, the tile is of that static size: made once outside the loop,
/// on the stack (LowerDispatchToLLVM.cpp). Otherwise it is a heap tile
/// anyway, and each bounded size is held to the whole intermediate's too,
/// computed before the loop so the buffer can still leave it: 2 rows of
/// 2^20 columns allocate 2 rows, not the 128 of a full tile.
void shrinkEmptyTiles(RewriterBase &rewriter, scf::ForOp loop) {
  SmallVector<tensor::ExtractSliceOp> slices;
  loop.walk([&](tensor::ExtractSliceOp slice) {
    if (slice.getSource().getDefiningOp<tensor::EmptyOp>())
      slices.push_back(slice);
  });
  MLIRContext *context = loop.getContext();
  for (tensor::ExtractSliceOp slice : slices) {
    auto whole = slice.getSource().getDefiningOp<tensor::EmptyOp>();
    Location loc = slice.getLoc();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    SmallVector<OpFoldResult> extents = whole.getMixedSizes();
    // Each size's constant bound, if any (no larger than a static extent).
    SmallVector<std::optional<int64_t>> bounds;
    for (auto [size, extent] : llvm::zip(sizes, extents)) {
      std::optional<int64_t> bound = getConstantIntValue(size);
      if (!bound) {
        FailureOr<int64_t> upper =
            ValueBoundsConstraintSet::computeConstantBound(
                presburger::BoundType::UB, size, /*stopCondition=*/nullptr,
                /*closedUB=*/true);
        if (succeeded(upper))
          bound = std::max<int64_t>(*upper, 0);
      }
      if (std::optional<int64_t> staticExtent = getConstantIntValue(extent);
          bound && staticExtent)
        bound = std::min(*bound, *staticExtent);
      bounds.push_back(bound);
    }
    Type elementType = slice.getType().getElementType();
    bool onStack =
        elementType.isIntOrFloat() && !llvm::is_contained(bounds, std::nullopt);
    if (onStack) {
      int64_t bits = elementType.getIntOrFloatBitWidth();
      for (std::optional<int64_t> bound : bounds) {
        if (*bound != 0 && bits > kMaxStackTileBytes * 8 / *bound) {
          onStack = false;
          break;
        }
        bits *= *bound;
      }
    }
    SmallVector<OpFoldResult> tileSizes;
    for (auto [size, bound, extent] : llvm::zip(sizes, bounds, extents)) {
      if (!bound) {
        tileSizes.push_back(size);
      } else if (onStack || getConstantIntValue(size) ||
                 !loop.isDefinedOutsideOfLoop(whole)) {
        tileSizes.push_back(rewriter.getIndexAttr(*bound));
      } else {
        rewriter.setInsertionPoint(loop);
        AffineMap min = AffineMap::get(
            0, 2,
            {getAffineSymbolExpr(0, context), getAffineSymbolExpr(1, context)},
            context);
        tileSizes.push_back(affine::makeComposedFoldedAffineMin(
            rewriter, loc, min, {rewriter.getIndexAttr(*bound), extent}));
      }
    }
    rewriter.setInsertionPoint(slice);
    auto empty = tensor::EmptyOp::create(rewriter, loc, tileSizes, elementType);
    SmallVector<OpFoldResult> zeros(sizes.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(sizes.size(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), empty, zeros, sizes, ones);
  }
}

} // namespace

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
  auto loop = cast<scf::ForOp>(tiled->loops.front().getOperation());
  if (failed(resolveDims(body)))
    return body.emitOpError("could not resolve the sizes of its tiles");
  shrinkEmptyTiles(rewriter, loop);
  // Dead slices, producers and index arithmetic the fusion leaves (not the
  // result's materialize_in_destination, which has no uses but stays).
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
