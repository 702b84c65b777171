// Tiles a workgroup's linalg ops for the cache and registers and vectorizes
// them with linalg's vectorizer, W being the target's SIMD width in elements
// of the op's result type:
//
// - row-major matmul (C[m,n] += A[m,k] * B[k,n]): n and k are tiled by 2W
//   and 256, or a static n or k when shorter (the panel of B one register
//   block reads); each 256x2W panel of B is packed into a contiguous stack
//   buffer (rows of B lie a row of the matrix apart, which L1 maps onto a
//   few sets); the tile is then cut into
//   8x2Wx1 register blocks, vectorized to vector.contract and lowered to
//   outer products (broadcast A, FMA with a vector of B). The 8x2W block of
//   C is hoisted out of the k loop, so it stays in 16 registers while k
//   runs. The summation order of each element of C is unchanged (k in
//   order); each step is one fused multiply-add (one rounding, not two).
//   A static n (k) over 2W (256) but not a multiple of it is split first:
//   the multiple as above, the rest as one narrower panel (n % 2W lanes,
//   k % 256 deep).
// - batch_matmul: tiled by batch, each batch a linalg.matmul over
//   rank-reducing subviews, tiled as above.
// - vecmat (y[n] += x[k] * A[k,n]): blocks of 4W lanes of y, an FMA of a
//   broadcast x[k] and a vector of A per k, the block hoisted out of k.
// - NHWC convolutions and pooling (conv_2d_nhwc_hwcf along F,
//   depthwise_conv_2d_nhwc_hwc and pooling_nhwc_sum/max along C): blocks of
//   8 output columns by 2W channels for one output row and filter row (and
//   one input channel), rewritten to their 1-D forms and vectorized by
//   linalg's convolution vectorizer into FMAs of a broadcast input and a
//   vector of filter channels (sums, maxima), the block of outputs hoisted
//   out of the window and channel loops. Channels over 2W but not a
//   multiple of it are split as a matmul's n is. conv_2d_nchw_fchw: blocks
//   of 8 filters by 2W output columns (contiguous in NCHW), each tile an
//   outer product of filter values and a (strided) input row.
// - reductions over the innermost loop (a row sum, matvec, dot): 4W
//   elements at a time into a multiply (if any) and vector.multi_reduction,
//   the accumulator hoisted out of the loop; the horizontal sums may be
//   reassociated (partial sums of 4W lanes: the result differs from the
//   sequential sum by rounding only).
// - elementwise ops whose operands all run along the innermost loop (or do
//   not depend on it): tiled by W along it and vectorized, so each register
//   is loaded, computed and stored before the next (LLVM unrolls the loop
//   but keeps that order). Tiles of 4W became 4 loads, the payload on 4
//   registers, then 4 stores: an 8-op chain over 16M f32 with streaming
//   stores ran at 1.0x memcpy's bandwidth instead of 1.25x (measured on the
//   extracted kernel, CPU time in the same process).
//   For both, a static innermost loop over the tile width but not a
//   multiple of it is split as a matmul's n is.
//
// Each tiling loop's last partial tile is peeled off, so the main loops'
// tiles have static shapes and are vectorized without masks; a partial
// tile whose shape folds to static (static extents) is vectorized at that
// shape, a register block or tile of dynamic shape (a dynamic extent, or
// the last workgroup's rows) with masks in the full tile's vector shape (a
// matmul's last panel of a dynamic n or k is cut into register blocks too,
// reading B in place). Left for linalg-to-loops: a convolution's partial
// tiles of dynamic shape, ops with an i1 operand (hasSubByteMemref), and
// ops of no pattern above (transposes, ...).
//
// On targets that ask for it (x86), the vector stores of a large binding
// the workgroup only writes become non-temporal where aligned
// (streamLargeOutputs).
#include "compiler/Codegen/TileAndVectorize.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace ferry::codegen {

namespace {

/// Rows of A (and of C) in a matmul register block.
constexpr int64_t kMatmulRows = 8;
/// Depth (k) of a packed panel of B.
constexpr int64_t kMatmulDepth = 256;
/// Rows a matmul workgroup takes at least: each workgroup packs all of B
/// for its rows, so fewer, taller workgroups copy less (measured on sgemm
/// 1024^3: 64 rows 23 ms, 128 rows 20 ms); 64 when there are fewer than 512
/// rows, so that small batches still spread over threads.
constexpr int64_t kMatmulWorkgroupRows = 128;
constexpr int64_t kSmallMatmulWorkgroupRows = 64;

/// Columns a vecmat workgroup takes a multiple of.
constexpr int64_t kVecmatColumns = 64;

/// SIMD width in elements of `type` (at least 1).
int64_t lanes(const VectorTarget &target, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, target.vectorBits / std::max(bits, 8u));
}

Type resultElementType(linalg::LinalgOp op) {
  return getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
}

bool isRowMajorMatmul(linalg::LinalgOp op) {
  if (op.getNumLoops() != 3 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[0] == AffineMap::get(3, 0, {m, k}, context) &&
         maps[1] == AffineMap::get(3, 0, {k, n}, context) &&
         maps[2] == AffineMap::get(3, 0, {m, n}, context);
}

/// A linalg.batch_matmul of row-major matrices (C[b,m,n] += A[b,m,k] *
/// B[b,k,n]). (A generic of the same maps is left alone: re-created as a
/// generic per batch, the vectorizer made one-lane vectors of it.)
bool isRowMajorBatchMatmul(linalg::LinalgOp op) {
  if (!isa<linalg::BatchMatmulOp>(op) || op.getNumDpsInputs() != 2)
    return false;
  MLIRContext *context = op.getContext();
  AffineExpr b, m, n, k;
  bindDims(context, b, m, n, k);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[0] == AffineMap::get(4, 0, {b, m, k}, context) &&
         maps[1] == AffineMap::get(4, 0, {b, k, n}, context) &&
         maps[2] == AffineMap::get(4, 0, {b, m, n}, context);
}

/// All loops parallel but the innermost, a reduction; one init, every
/// input read along the innermost loop (last) or independent of it, at
/// least one along it: a row sum, linalg.matvec and linalg.dot.
bool isInnermostReduction(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  if (loops < 1 || op.getNumDpsInputs() < 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()))
    return false;
  AffineExpr innermost = getAffineDimExpr(loops - 1, op.getContext());
  bool along = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isa<MemRefType>(input->get().getType()) ||
        !map.isProjectedPermutation())
      return false;
    if (!map.isFunctionOfDim(loops - 1))
      continue;
    if (map.getResults().back() != innermost)
      return false;
    along = true;
  }
  return along;
}

/// A vector times a row-major matrix (y[n] += x[k] * A[k,n]):
/// linalg.vecmat or a generic of the same maps.
bool isVecmat(linalg::LinalgOp op) {
  if (op.getNumLoops() != 2 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  MLIRContext *context = op.getContext();
  AffineExpr n, k;
  bindDims(context, n, k);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  return maps[0] == AffineMap::get(2, 0, {k}, context) &&
         maps[1] == AffineMap::get(2, 0, {k, n}, context) &&
         maps[2] == AffineMap::get(2, 0, {n}, context);
}

/// All loops parallel, the init an identity, every input either read along
/// the innermost loop (last) or independent of it.
bool isInnermostElementwise(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  if (loops < 1 || op.getNumParallelLoops() != loops ||
      op.getNumDpsInits() != 1)
    return false;
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  AffineExpr innermost = getAffineDimExpr(loops - 1, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue; // a scalar (linalg.fill's value)
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation())
      return false;
    if (map.isFunctionOfDim(loops - 1) && map.getResults().back() != innermost)
      return false;
  }
  return true;
}

/// Whether the body is made of ops the vector lowering handles on every
/// element type: arith, and math on floats (integer math, such as
/// math.absi on i8 vectors, left an unrealized cast in LLVM translation).
bool hasVectorizableBody(linalg::LinalgOp op) {
  return llvm::all_of(op.getBlock()->getOperations(), [](Operation &inner) {
    if (isa<linalg::YieldOp>(inner) ||
        isa<arith::ArithDialect>(inner.getDialect()))
      return true;
    return isa<math::MathDialect>(inner.getDialect()) &&
           llvm::all_of(inner.getResultTypes(),
                        [](Type type) { return isa<FloatType>(type); });
  });
}

/// Whether an operand is a memref of elements narrower than a byte (i1).
/// Memory holds one byte per i1, but a vector<Nxi1> load or store in LLVM
/// is bit-packed (N bits): vectorized, a mask read 16 bytes as 16 bits.
bool hasSubByteMemref(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && memref.getElementType().isIntOrFloat() &&
           memref.getElementType().getIntOrFloatBitWidth() < 8;
  });
}

bool hasDynamicShape(linalg::LinalgOp op) {
  return llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
}

/// Tiles `op` by `sizes` (0: untiled) into loops; returns the tiled op.
FailureOr<linalg::LinalgOp>
tile(RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
     SmallVectorImpl<linalg::LinalgOp> *partials = nullptr) {
  // A tile no larger than a static extent: tiled by more, the main loop
  // would be empty and the one tile a peeled partial one, whose inner
  // loops are not peeled.
  SmallVector<int64_t> clamped(sizes);
  for (auto [size, range] : llvm::zip(clamped, op.getStaticLoopRanges()))
    if (!ShapedType::isDynamic(range) && size > range)
      size = std::max<int64_t>(range, 1);
  linalg::LinalgTilingOptions options;
  options.setTileSizes(clamped).setLoopType(
      linalg::LinalgTilingLoopType::Loops);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, op, options);
  if (failed(tiled))
    return failure();
  rewriter.eraseOp(op);
  // Full tiles in the main loops, the last partial one of each peeled off:
  // the main loops' tiles get static shapes.
  for (Operation *loop : tiled->loops) {
    auto forOp = dyn_cast<scf::ForOp>(loop);
    scf::ForOp partial;
    if (forOp &&
        succeeded(
            scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial)) &&
        partials)
      partial.walk([&](linalg::LinalgOp clone) { partials->push_back(clone); });
  }
  return tiled->op;
}

constexpr llvm::StringLiteral kVectorize = "ferry.vectorize";

/// Marks `op` (a tile) to be vectorized once the bounds of the tiles are
/// folded (vectorizeMarked); `sizes` are the tile sizes it is about to be
/// tiled by (0: untiled), the bounds of a partial tile's loops.
void markForVectors(linalg::LinalgOp op, ArrayRef<int64_t> sizes = {}) {
  op->setAttr(kVectorize, DenseI64ArrayAttr::get(op.getContext(), sizes));
}

/// Tiles `op` by `sizes` with every tile marked for vectors, the peeled
/// partial tiles too (the mark is copied with the op).
FailureOr<linalg::LinalgOp> tileAndMark(RewriterBase &rewriter,
                                        linalg::LinalgOp op,
                                        ArrayRef<int64_t> sizes) {
  markForVectors(op, sizes);
  return tile(rewriter, op, sizes);
}

/// The vector shape of a marked op: none for a static shape (the op's
/// own); for a partial tile (dynamic loop ranges), each dynamic range's
/// tile size, in which the op is vectorized with masks; std::nullopt if a
/// dynamic range has no bound.
std::optional<SmallVector<int64_t>> maskedVectorSizes(linalg::LinalgOp op,
                                                      DenseI64ArrayAttr mark) {
  if (!hasDynamicShape(op))
    return SmallVector<int64_t>{};
  // Not on f16 or bf16 (emulated in f32): masked, the bf16 rounding came
  // out as a call of __truncsfbf2, which images must not need.
  if (llvm::any_of(op->getOperandTypes(), [](Type type) {
        return isa<Float16Type, BFloat16Type>(getElementTypeOrSelf(type));
      }))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!mark || mark.size() != static_cast<int64_t>(ranges.size()))
    return std::nullopt;
  SmallVector<int64_t> sizes;
  for (auto [range, size] : llvm::zip(ranges, mark.asArrayRef())) {
    if (!ShapedType::isDynamic(range))
      sizes.push_back(range);
    else if (size > 0)
      sizes.push_back(size);
    else
      return std::nullopt;
  }
  return sizes;
}

/// Whether `op` is vectorized into a vector.contract (lowered to outer
/// products: register blocks of a matmul, a vecmat or a convolution); a
/// matvec or a dot is not, but into a multiply and a vector reduction
/// along k (as outer products, its blocks of one output would be scalar
/// FMAs).
bool isContraction(linalg::LinalgOp op) {
  return linalg::isaContractionOpInterface(op) && !isInnermostReduction(op);
}

/// Vectorizes every marked op of `body` of static shape (the tiles of the
/// main loops); a partial tile, or an op the vectorizer refuses, stays for
/// linalg-to-loops.
void vectorizeMarked(RewriterBase &rewriter, func::FuncOp body) {
  SmallVector<linalg::LinalgOp> marked;
  body.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorize))
      marked.push_back(op);
  });
  for (linalg::LinalgOp op : marked) {
    auto mark = op->getAttrOfType<DenseI64ArrayAttr>(kVectorize);
    op->removeAttr(kVectorize);
    std::optional<SmallVector<int64_t>> sizes = maskedVectorSizes(op, mark);
    if (!sizes || failed(linalg::vectorizeOpPrecondition(op, *sizes)))
      continue;
    SmallVector<bool> scalable(sizes->size(), false);
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op, *sizes, scalable,
                          /*vectorizeNDExtract=*/false,
                          /*flatten1DDepthwiseConv=*/false,
                          /*assumeDynamicDimsMatchVecSizes=*/false,
                          /*createNamedContraction=*/isContraction(op));
    if (succeeded(result))
      rewriter.eraseOp(op);
  }
}

/// Copies operand B of the matmul tile `op` (at most depth x width) into a
/// contiguous stack buffer allocated once at the entry of `body`, and makes
/// `op` read it instead.
void packB(RewriterBase &rewriter, func::FuncOp body, linalg::LinalgOp op,
           int64_t depth, int64_t width) {
  OpOperand *b = op.getDpsInputOperand(1);
  auto type = cast<MemRefType>(b->get().getType());
  Location loc = op.getLoc();
  rewriter.setInsertionPointToStart(&body.front());
  Value buffer = memref::AllocaOp::create(
      rewriter, loc, MemRefType::get({depth, width}, type.getElementType()),
      ValueRange{}, rewriter.getI64IntegerAttr(64));
  rewriter.setInsertionPoint(op);
  Value packed = buffer;
  if (type.getShape() != ArrayRef<int64_t>{depth, width}) {
    SmallVector<OpFoldResult> sizes =
        memref::getMixedSizes(rewriter, loc, b->get());
    SmallVector<OpFoldResult> zeros(2, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(2, rewriter.getIndexAttr(1));
    packed =
        memref::SubViewOp::create(rewriter, loc, buffer, zeros, sizes, ones);
  }
  linalg::CopyOp::create(rewriter, loc, b->get(), packed);
  rewriter.modifyOpInPlace(op, [&] { b->set(packed); });
}

/// Splits loop `dim` of `op` (on memrefs; every operand indexed by it
/// indexes with the bare loop) at the static `point` into two ops over
/// subviews, the first over [0, point), the second over [point, extent);
/// they run in that order, so a reduction loop keeps its order.
std::pair<linalg::LinalgOp, linalg::LinalgOp>
splitLoop(RewriterBase &rewriter, linalg::LinalgOp op, unsigned dim,
          int64_t point, int64_t extent) {
  Location loc = op.getLoc();
  AffineExpr loop = getAffineDimExpr(dim, op.getContext());
  rewriter.setInsertionPoint(op);
  auto part = [&](int64_t offset, int64_t size) {
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      auto type = dyn_cast<MemRefType>(value.getType());
      std::optional<unsigned> position =
          type ? op.getMatchingIndexingMap(&operand).getResultPosition(loop)
               : std::nullopt;
      if (!position) {
        operands.push_back(value);
        continue;
      }
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          memref::getMixedSizes(rewriter, loc, value);
      SmallVector<OpFoldResult> strides(type.getRank(),
                                        rewriter.getIndexAttr(1));
      offsets[*position] = rewriter.getIndexAttr(offset);
      sizes[*position] = rewriter.getIndexAttr(size);
      operands.push_back(memref::SubViewOp::create(rewriter, loc, value,
                                                   offsets, sizes, strides));
    }
    Operation *clone = rewriter.clone(*op);
    clone->setOperands(operands);
    return cast<linalg::LinalgOp>(clone);
  };
  linalg::LinalgOp first = part(0, point);
  linalg::LinalgOp second = part(point, extent - point);
  rewriter.eraseOp(op);
  return {first, second};
}

/// Whether every operand of `op` indexed by loop `dim` indexes with the
/// bare loop (so splitLoop applies).
bool indexesPlainly(linalg::LinalgOp op, unsigned dim) {
  AffineExpr loop = getAffineDimExpr(dim, op.getContext());
  return llvm::all_of(op.getIndexingMapsArray(), [&](AffineMap map) {
    return llvm::all_of(map.getResults(), [&](AffineExpr result) {
      return result == loop || !result.isFunctionOfDim(dim);
    });
  });
}

/// Splits a static loop `dim` of `op` longer than `tile` but not a
/// multiple of it into the multiple and the remainder (which gets a
/// narrower tile of its own length instead of being a peeled partial tile
/// left to scalar loops); returns the ops to tile, in order.
SmallVector<linalg::LinalgOp> splitRemainder(RewriterBase &rewriter,
                                             linalg::LinalgOp op, unsigned dim,
                                             int64_t tile) {
  int64_t extent = op.getStaticLoopRanges()[dim];
  if (ShapedType::isDynamic(extent) || extent <= tile || extent % tile == 0 ||
      !indexesPlainly(op, dim))
    return {op};
  auto [main, rest] =
      splitLoop(rewriter, op, dim, extent - extent % tile, extent);
  return {main, rest};
}

LogicalResult tileMatmulPanels(RewriterBase &rewriter, func::FuncOp body,
                               linalg::LinalgOp op, const VectorTarget &target);

LogicalResult tileMatmul(RewriterBase &rewriter, func::FuncOp body,
                         linalg::LinalgOp op, const VectorTarget &target) {
  // A static n (or k) over a tile but not a multiple of it: the multiple in
  // full tiles, the rest as one narrower panel (n % 2W lanes, k % 256
  // deep), so no column of C is left to scalar loops.
  int64_t width = 2 * lanes(target, resultElementType(op));
  for (linalg::LinalgOp columns : splitRemainder(rewriter, op, 1, width))
    for (linalg::LinalgOp part :
         splitRemainder(rewriter, columns, 2, kMatmulDepth))
      if (failed(tileMatmulPanels(rewriter, body, part, target)))
        return failure();
  return success();
}

/// A batch matmul: one row-major matmul per batch (a loop over the
/// workgroup's batches; the workgroups split the batches, or the rows of a
/// batch of one), each through tileMatmul.
LogicalResult tileBatchMatmul(RewriterBase &rewriter, func::FuncOp body,
                              linalg::LinalgOp op, const VectorTarget &target) {
  FailureOr<linalg::LinalgOp> batch = tile(rewriter, op, {1, 0, 0, 0});
  if (failed(batch))
    return op->emitOpError("could not be tiled into batches");
  // The batch's operands as matrices (rank-reducing subviews) under a
  // linalg.matmul.
  Location loc = batch->getLoc();
  rewriter.setInsertionPoint(*batch);
  SmallVector<Value> matrices;
  for (Value operand : batch->getOperation()->getOperands()) {
    auto type = cast<MemRefType>(operand.getType());
    matrices.push_back(memref::createCanonicalRankReducingSubViewOp(
        rewriter, loc, operand, type.getShape().drop_front()));
  }
  auto matmul = linalg::MatmulOp::create(rewriter, loc,
                                         ValueRange{matrices[0], matrices[1]},
                                         ValueRange{matrices[2]});
  rewriter.eraseOp(*batch);
  return tileMatmul(rewriter, body, matmul, target);
}

LogicalResult tileMatmulPanels(RewriterBase &rewriter, func::FuncOp body,
                               linalg::LinalgOp op,
                               const VectorTarget &target) {
  // A static n or k shorter than a tile is one tile: tiled by 2W or 256,
  // the only tile would be the peeled partial one, left to scalar loops (a
  // classifier's 10 outputs: vectors of 10 lanes, which LLVM widens).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t width = 2 * lanes(target, resultElementType(op));
  if (!ShapedType::isDynamic(ranges[1]) && ranges[1] < width)
    width = std::max<int64_t>(ranges[1], 1);
  int64_t depth = kMatmulDepth;
  int64_t k = ranges[2];
  if (!ShapedType::isDynamic(k) && k < depth)
    depth = std::max<int64_t>(k, 1);
  SmallVector<linalg::LinalgOp> partialPanels;
  FailureOr<linalg::LinalgOp> panel =
      tile(rewriter, op, {0, width, depth}, &partialPanels);
  if (failed(panel))
    return op->emitOpError("could not be tiled into panels of B");
  packB(rewriter, body, *panel, depth, width);
  if (failed(tileAndMark(rewriter, *panel, {kMatmulRows, width, 1})))
    return panel->getOperation()->emitOpError(
        "could not be tiled into register blocks");
  // The last panel of a dynamic n (or k): register blocks over B in place,
  // masked where narrower than 2W.
  for (linalg::LinalgOp partial : partialPanels)
    if (failed(tileAndMark(rewriter, partial, {kMatmulRows, width, 1})))
      return partial->emitOpError("could not be tiled into register blocks");
  return success();
}

/// Tiles `op` with `sizes` after splitting `loop` at the largest multiple
/// of `width` (splitRemainder): that loop's tile is `width`, or a static
/// part's whole extent when shorter (the narrower remainder).
LogicalResult tileSplitAndMark(RewriterBase &rewriter, linalg::LinalgOp op,
                               unsigned loop, int64_t width,
                               ArrayRef<int64_t> sizes, StringRef failure) {
  for (linalg::LinalgOp part : splitRemainder(rewriter, op, loop, width)) {
    SmallVector<int64_t> partSizes(sizes);
    int64_t extent = part.getStaticLoopRanges()[loop];
    partSizes[loop] = ShapedType::isDynamic(extent)
                          ? width
                          : std::clamp<int64_t>(extent, 1, width);
    if (failed(tileAndMark(rewriter, part, partSizes)))
      return op->emitOpError(failure);
  }
  return success();
}

/// A row reduction (4W lanes of the innermost loop at a time: four
/// independent partial sums) or an elementwise op (W lanes, see the top of
/// the file), one iteration of every other loop; a static innermost loop
/// over that width but not a multiple of it leaves its remainder as one
/// narrower tile.
LogicalResult tileInnermost(RewriterBase &rewriter, linalg::LinalgOp op,
                            const VectorTarget &target) {
  int64_t registers = isInnermostReduction(op) ? 4 : 1;
  int64_t width = registers * lanes(target, resultElementType(op));
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  return tileSplitAndMark(rewriter, op, op.getNumLoops() - 1, width, sizes,
                          "could not be tiled for vectorization");
}

/// A vecmat: 4W lanes of y (of A's rows) at a time, each an FMA of a
/// broadcast element of x and a vector of A per k, the block of y carried
/// in registers across k; n over 4W but not a multiple of it leaves a
/// narrower last block.
LogicalResult tileVecmat(RewriterBase &rewriter, linalg::LinalgOp op,
                         const VectorTarget &target) {
  int64_t width = 4 * lanes(target, resultElementType(op));
  return tileSplitAndMark(rewriter, op, 0, width, {width, 1},
                          "could not be tiled for vectorization");
}

/// Output columns (ow) of a convolution or pooling register block.
constexpr int64_t kConvColumns = 8;

/// An NHWC convolution or pooling whose channel loop (F of
/// conv_2d_nhwc_hwcf, C of the depthwise convolution and the pooling ops)
/// is contiguous in the output: the loop vectorized.
std::optional<unsigned> nhwcChannelLoop(linalg::LinalgOp op) {
  if (isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
          linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp>(op))
    return 3;
  return std::nullopt;
}

/// An NHWC convolution or pooling: register blocks of 8 output columns by
/// 2W channels (or the channels when fewer) for one output row, one filter
/// row and column and (conv_2d_nhwc_hwcf) one input channel, which
/// linalg's 1-D convolution vectorizer turns into FMAs of a broadcast input
/// and a vector of filter channels (sums and maxima for pooling), the block
/// of outputs carried in registers across the window and input channels.
/// Channels over 2W but not a multiple of it get a narrower last block; a
/// partial block of columns is vectorized at its width too (the tiles are
/// marked before tiling, so the peeled partial tiles are marked as well).
LogicalResult tileConvolution(RewriterBase &rewriter, linalg::LinalgOp op,
                              unsigned channels, const VectorTarget &target) {
  int64_t width = 2 * lanes(target, resultElementType(op));
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes[2] = kConvColumns;
  return tileSplitAndMark(rewriter, op, channels, width, sizes,
                          "could not be tiled into register blocks");
}

/// conv_2d_nchw_fchw: register blocks of 8 filters by 2W output columns
/// (contiguous in NCHW) for one output row, one input channel and one
/// filter element, each an outer product (a broadcast filter value times a
/// vector of input columns) into the block of outputs, which is carried in
/// registers across the channel and window loops (rewriteNchwTiles).
LogicalResult tileNchwConvolution(RewriterBase &rewriter, linalg::LinalgOp op,
                                  const VectorTarget &target) {
  int64_t width = 2 * lanes(target, resultElementType(op));
  int64_t columns = op.getStaticLoopRanges()[3];
  if (!ShapedType::isDynamic(columns) && columns < width)
    width = std::max<int64_t>(columns, 1);
  if (failed(tileAndMark(rewriter, op, {1, kMatmulRows, 1, width, 1, 1, 1})))
    return op->emitOpError("could not be tiled into register blocks");
  return success();
}

/// Rewrites each marked conv_2d_nchw_fchw tile of static loop ranges with
/// one image, output row, input channel and filter element as a generic
/// over rank-reducing subviews: out[f, w] = out[f, w] + in[w] * filter[f]
/// (the convolution's own body), in[w] a strided view of the input row
/// (stride: the convolution's), which the vectorizer takes as an
/// elementwise op with a broadcast operand.
void rewriteNchwTiles(RewriterBase &rewriter, func::FuncOp body) {
  SmallVector<linalg::Conv2DNchwFchwOp> convs;
  body.walk([&](linalg::Conv2DNchwFchwOp op) {
    if (op->hasAttr(kVectorize))
      convs.push_back(op);
  });
  MLIRContext *context = body.getContext();
  for (linalg::Conv2DNchwFchwOp op : convs) {
    // Loops n, f, oh, ow, c, kh, kw.
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic) || ranges[0] != 1 ||
        ranges[2] != 1 || ranges[4] != 1 || ranges[5] != 1 || ranges[6] != 1)
      continue;
    int64_t filters = ranges[1], columns = ranges[3];
    int64_t stride = op.getStrides().getValues<int64_t>()[1];
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto index = [&](int64_t value) -> OpFoldResult {
      return rewriter.getIndexAttr(value);
    };
    // The input row's columns ow * stride (ow < columns), as a 1-D view.
    // (One column reads one element: its step is 1, since a view of size
    // 1 has the unit stride its inferred type gives it.)
    Value input = op.getDpsInputOperand(0)->get();
    SmallVector<OpFoldResult> zeros(4, index(0));
    SmallVector<OpFoldResult> sizes{index(1), index(1), index(1),
                                    index(columns)};
    SmallVector<OpFoldResult> steps{index(1), index(1), index(1),
                                    index(columns == 1 ? 1 : stride)};
    auto rowType = memref::SubViewOp::inferRankReducedResultType(
        {columns}, cast<MemRefType>(input.getType()), zeros, sizes, steps);
    Value row = memref::SubViewOp::create(rewriter, loc, rowType, input, zeros,
                                          sizes, steps);
    Value filter = memref::createCanonicalRankReducingSubViewOp(
        rewriter, loc, op.getDpsInputOperand(1)->get(), {filters});
    Value output = memref::createCanonicalRankReducingSubViewOp(
        rewriter, loc, op.getDpsInitOperand(0)->get(), {filters, columns});
    AffineExpr f, w;
    bindDims(context, f, w);
    SmallVector<AffineMap> maps{AffineMap::get(2, 0, {w}, context),
                                AffineMap::get(2, 0, {f}, context),
                                AffineMap::get(2, 0, {f, w}, context)};
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    auto generic =
        linalg::GenericOp::create(rewriter, loc, ValueRange{row, filter},
                                  ValueRange{output}, maps, iterators);
    rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                               generic.getRegion().end());
    markForVectors(generic);
    rewriter.eraseOp(op);
  }
}

/// Rewrites each marked 2-D convolution or pooling tile of static loop
/// ranges with one output row and one filter row into its 1-D form over
/// rank-reducing subviews (H dropped), which linalg's vectorizer takes; the
/// 1-D op keeps the mark. (Upstream's DownscaleSizeOneWindowed2DConvolution
/// does this on tensors only.) The tile's input window is given its static
/// width, (OW - 1) * stride + (KW - 1) * dilation + 1: tiling bounds it by
/// the input's extent, which does not fold, and the vectorizer takes static
/// shapes only; the convolution reads no more than that window.
void decomposeMarkedConvolutions(RewriterBase &rewriter, func::FuncOp body) {
  SmallVector<linalg::LinalgOp> convs;
  body.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorize) && nhwcChannelLoop(op))
      convs.push_back(op);
  });
  for (linalg::LinalgOp op : convs) {
    // Loops n, oh, ow, channel, kh, kw (and c of conv_2d_nhwc_hwcf).
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
    auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
    if (llvm::any_of(ranges, ShapedType::isDynamic) || ranges[1] != 1 ||
        ranges[4] != 1 || !strides || !dilations)
      continue;
    int64_t stride = strides.getValues<int64_t>()[1];
    int64_t dilation = dilations.getValues<int64_t>()[1];
    int64_t inputChannels =
        isa<linalg::Conv2DNhwcHwcfOp>(op) ? ranges[6] : ranges[3];
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value input = op.getDpsInputOperand(0)->get();
    auto inputType = cast<MemRefType>(input.getType());
    SmallVector<int64_t> window{
        ranges[0], 1, (ranges[2] - 1) * stride + (ranges[5] - 1) * dilation + 1,
        inputChannels};
    SmallVector<OpFoldResult> zeros(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(4, rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), window);
    auto rowType = memref::SubViewOp::inferRankReducedResultType(
        {window[0], window[2], window[3]}, inputType, zeros, sizes, ones);
    Value row = memref::SubViewOp::create(rewriter, loc, rowType, input, zeros,
                                          sizes, ones);
    // The filter (window) and the output without their first row.
    auto dropRow = [&](Value value, unsigned dim) {
      ArrayRef<int64_t> shape = cast<MemRefType>(value.getType()).getShape();
      SmallVector<int64_t> reduced(shape);
      reduced.erase(reduced.begin() + dim);
      return memref::createCanonicalRankReducingSubViewOp(rewriter, loc, value,
                                                          reduced);
    };
    Value filter = dropRow(op.getDpsInputOperand(1)->get(), 0);
    Value output = dropRow(op.getDpsInitOperand(0)->get(), 1);
    Attribute stride1 = rewriter.getI64TensorAttr({stride});
    Attribute dilation1 = rewriter.getI64TensorAttr({dilation});
    SmallVector<Value> inputs{row, filter};
    SmallVector<Value> outputs{output};
    Operation *oneD =
        llvm::TypeSwitch<Operation *, Operation *>(op)
            .Case([&](linalg::Conv2DNhwcHwcfOp) {
              return linalg::Conv1DNwcWcfOp::create(rewriter, loc, TypeRange{},
                                                    inputs, outputs, stride1,
                                                    dilation1);
            })
            .Case([&](linalg::DepthwiseConv2DNhwcHwcOp) {
              return linalg::DepthwiseConv1DNwcWcOp::create(
                  rewriter, loc, TypeRange{}, inputs, outputs, stride1,
                  dilation1);
            })
            .Case([&](linalg::PoolingNhwcSumOp) {
              return linalg::PoolingNwcSumOp::create(rewriter, loc, TypeRange{},
                                                     inputs, outputs, stride1,
                                                     dilation1);
            })
            .Case([&](linalg::PoolingNhwcMaxOp) {
              return linalg::PoolingNwcMaxOp::create(rewriter, loc, TypeRange{},
                                                     inputs, outputs, stride1,
                                                     dilation1);
            });
    markForVectors(cast<linalg::LinalgOp>(oneD));
    rewriter.eraseOp(op);
  }
}

/// Applies `patterns` to `body` until nothing changes.
LogicalResult apply(func::FuncOp body, RewritePatternSet &&patterns) {
  return applyPatternsGreedily(body, std::move(patterns));
}

/// Whether `op` or an op nested in it may write memory.
bool mayWrite(Operation *op) {
  bool writes = false;
  op->walk([&](Operation *nested) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects ? effects.hasEffect<MemoryEffects::Write>()
                : !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                      !isPure(nested))
      writes = true;
  });
  return writes;
}

/// Keeps accumulator blocks in registers across a loop: a transfer_read and
/// a later transfer_write of the same loop-invariant memref at the same
/// invariant indices, in a loop where nothing else writes memory or touches
/// that memref, become a value the loop carries (read before it, written
/// after it). Other bindings are not aliases of a written one (each
/// binding is `restrict`, ExecutableCompiler.h), which is what lets this go
/// beyond linalg::hoistRedundantVectorTransfers (which must assume function
/// arguments alias).
void hoistAccumulators(RewriterBase &rewriter, func::FuncOp body) {
  SmallVector<scf::ForOp> loops;
  body.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    bool hoisted = true;
    while (hoisted) {
      hoisted = false;
      for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
        if (!llvm::all_of(read->getOperands(), [&](Value operand) {
              return loop.isDefinedOutsideOfLoop(operand);
            }))
          continue;
        vector::TransferWriteOp write;
        for (Operation *user : read.getBase().getUsers())
          if (auto candidate = dyn_cast<vector::TransferWriteOp>(user))
            if (candidate->getBlock() == loop.getBody() &&
                read->isBeforeInBlock(candidate) &&
                candidate.getIndices() == read.getIndices() &&
                candidate.getVectorType() == read.getVectorType() &&
                candidate.getPermutationMap() == read.getPermutationMap() &&
                !candidate.getMask())
              write = candidate;
        if (!write || read.getMask())
          continue;
        bool alone = llvm::all_of(read.getBase().getUsers(), [&](Operation *u) {
          return u == read || u == write || !loop->isAncestor(u);
        });
        for (Operation &op : loop.getBody()->without_terminator())
          if (&op != write.getOperation() && mayWrite(&op))
            alone = false;
        if (!alone)
          continue;
        rewriter.moveOpBefore(read, loop);
        FailureOr<LoopLikeOpInterface> carried =
            loop.replaceWithAdditionalYields(
                rewriter, read.getResult(),
                /*replaceInitOperandUsesInLoop=*/true,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return SmallVector<Value>{write.getVector()};
                });
        if (failed(carried))
          return;
        loop = cast<scf::ForOp>(carried->getOperation());
        rewriter.moveOpAfter(write, loop);
        rewriter.modifyOpInPlace(write, [&] {
          write.getValueToStoreMutable().assign(loop.getResults().back());
        });
        hoisted = true;
        break;
      }
    }
  }
}

/// Lowers the vector ops of `body` to the 1-D loads, stores, broadcasts,
/// FMAs and reductions convert-vector-to-llvm takes.
LogicalResult lowerVectors(func::FuncOp body) {
  MLIRContext *context = body.getContext();
  {
    RewritePatternSet patterns(context);
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(apply(body, std::move(patterns))))
      return failure();
  }
  {
    RewritePatternSet patterns(context);
    populateVectorToSCFConversionPatterns(
        patterns, VectorTransferToSCFOptions().enableFullUnroll());
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorMaskOpLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(apply(body, std::move(patterns))))
      return failure();
  }
  // Partial sums of a vectorized reduction may be added in any order.
  body.walk([](vector::ReductionOp reduction) {
    reduction.setFastmath(arith::FastMathFlags::reassoc);
  });
  return success();
}

/// Outputs at least this large (bytes of the whole binding) are streamed:
/// well over the L2 of a core (2 MiB on the machines this is tuned on), so
/// what a kernel writes would not stay cached for the next dispatch anyway.
constexpr int64_t kNontemporalMinBytes = 8 << 20;
/// The widest aligned store the stores are split into (a 512-bit register).
constexpr int64_t kNontemporalAlignment = 64;

/// The uses of `binding` (through subviews) if every one only writes it:
/// vector (masked too) and scalar stores, linalg ops whose payload does not
/// read their output, metadata; std::nullopt if anything may read it.
std::optional<SmallVector<Operation *>> writeOnlyUses(Value binding) {
  SmallVector<Operation *> uses;
  SmallVector<Value> views{binding};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
        views.push_back(subview.getResult());
        continue;
      }
      if (isa<memref::DimOp, memref::ExtractStridedMetadataOp>(user))
        continue;
      if (auto store = dyn_cast<vector::StoreOp>(user);
          store && store.getBase() == view) {
        uses.push_back(user);
        continue;
      }
      // A partial tile's masked store: a write, kept plain.
      if (auto store = dyn_cast<vector::MaskedStoreOp>(user);
          store && store.getBase() == view) {
        uses.push_back(user);
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getMemRef() == view) {
        uses.push_back(user);
        continue;
      }
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (linalgOp && linalgOp.isDpsInit(&use) &&
          !linalgOp.payloadUsesValueFromOperand(&use) &&
          llvm::count(linalgOp->getOperands(), view) == 1) {
        uses.push_back(user);
        continue;
      }
      return std::nullopt;
    }
  }
  return uses;
}

/// Streams the vector stores of large outputs a workgroup only writes (an
/// elementwise result, a fill) with non-temporal stores: a plain store
/// reads each line of the output before writing it (write-allocate), so a
/// kernel streaming one input into one output moves 3 bytes for each 2 it
/// must; memcpy and memset avoid that the same way. The binding's size is
/// known at compile time or checked at run time; each store is
/// non-temporal only when its address is aligned (checked at run time:
/// bindings carry no alignment guarantee), else it stays a plain store.
///
/// Non-temporal stores are weakly ordered on x86: the entry point that
/// calls a body with any of them fences them (LowerDispatchToLLVM.cpp).
void streamLargeOutputs(RewriterBase &rewriter, func::FuncOp body) {
  Block &entry = body.front();
  for (BlockArgument binding : entry.getArguments()) {
    // Not f16 or bf16: their arithmetic is emulated in f32 later, and with
    // the store in a branch the bf16 rounding came out as a call of
    // __truncsfbf2 (which images must not need) instead of integer code.
    auto type = dyn_cast<MemRefType>(binding.getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        isa<Float16Type, BFloat16Type>(type.getElementType()))
      continue;
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (bits % 8 != 0)
      continue;
    int64_t elementBytes = bits / 8;
    std::optional<SmallVector<Operation *>> uses = writeOnlyUses(binding);
    if (!uses)
      continue;
    SmallVector<vector::StoreOp> stores;
    for (Operation *use : *uses)
      if (auto store = dyn_cast<vector::StoreOp>(use)) {
        int64_t bytes = store.getVectorType().getNumElements() * elementBytes;
        if (store.getVectorType().getRank() == 1 && bytes >= 16 &&
            llvm::isPowerOf2_64(bytes))
          stores.push_back(store);
      }
    if (stores.empty())
      continue;
    // The binding's size: static, or a condition computed once at entry.
    Value large;
    Location loc = body.getLoc();
    if (type.hasStaticShape()) {
      if (type.getNumElements() * elementBytes < kNontemporalMinBytes)
        continue;
    } else {
      rewriter.setInsertionPointToStart(&entry);
      Value elements = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t d = 0; d < type.getRank(); ++d)
        elements = arith::MulIOp::create(
            rewriter, loc, elements,
            memref::DimOp::create(rewriter, loc, binding, d));
      large = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, elements,
          arith::ConstantIndexOp::create(
              rewriter, loc,
              llvm::divideCeil(kNontemporalMinBytes, elementBytes)));
    }
    for (vector::StoreOp store : stores) {
      auto view = cast<TypedValue<MemRefType>>(store.getBase());
      int64_t bytes = store.getVectorType().getNumElements() * elementBytes;
      int64_t alignment = std::min(bytes, kNontemporalAlignment);
      Location storeLoc = store.getLoc();
      rewriter.setInsertionPoint(store);
      // The address of the store's first element: the view's base pointer,
      // offset and strides applied to its indices.
      auto metadata =
          memref::ExtractStridedMetadataOp::create(rewriter, storeLoc, view);
      Value element = metadata.getOffset();
      for (auto [index, stride] :
           llvm::zip(store.getIndices(), metadata.getStrides()))
        element = arith::AddIOp::create(
            rewriter, storeLoc, element,
            arith::MulIOp::create(rewriter, storeLoc, index, stride));
      Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(
          rewriter, storeLoc, view);
      Value address = arith::AddIOp::create(
          rewriter, storeLoc, pointer,
          arith::MulIOp::create(rewriter, storeLoc, element,
                                arith::ConstantIndexOp::create(
                                    rewriter, storeLoc, elementBytes)));
      Value misalignment = arith::AndIOp::create(
          rewriter, storeLoc, address,
          arith::ConstantIndexOp::create(rewriter, storeLoc, alignment - 1));
      Value stream = arith::CmpIOp::create(
          rewriter, storeLoc, arith::CmpIPredicate::eq, misalignment,
          arith::ConstantIndexOp::create(rewriter, storeLoc, 0));
      if (large)
        stream = arith::AndIOp::create(rewriter, storeLoc, stream, large);
      scf::IfOp::create(
          rewriter, storeLoc, stream,
          [&](OpBuilder &builder, Location l) {
            vector::StoreOp::create(builder, l, store.getValueToStore(), view,
                                    store.getIndices(), /*nontemporal=*/true,
                                    llvm::MaybeAlign(alignment));
            scf::YieldOp::create(builder, l);
          },
          [&](OpBuilder &builder, Location l) {
            builder.clone(*store);
            scf::YieldOp::create(builder, l);
          });
      rewriter.eraseOp(store);
    }
  }
}

} // namespace

int64_t adjustWorkgroupTile(linalg::LinalgOp op, int64_t tile) {
  // A batch matmul of one batch is split by rows like a matmul; of more,
  // by batches.
  // A vecmat's workgroups take whole blocks of 4W columns (64: four 512-bit
  // registers of f32, a multiple of 4W on narrower targets).
  if (isVecmat(op))
    return llvm::divideCeil(tile, kVecmatColumns) * kVecmatColumns;
  unsigned rowLoop = 0;
  if (isRowMajorBatchMatmul(op) && op.getStaticLoopRanges()[0] == 1)
    rowLoop = 1;
  else if (!isRowMajorMatmul(op))
    return tile;
  int64_t rows = op.getStaticLoopRanges()[rowLoop];
  tile = std::max(tile, !ShapedType::isDynamic(rows) &&
                                rows < 4 * kMatmulWorkgroupRows
                            ? kSmallMatmulWorkgroupRows
                            : kMatmulWorkgroupRows);
  return llvm::divideCeil(tile, kMatmulRows) * kMatmulRows;
}

LogicalResult tileAndVectorize(ModuleOp module, const VectorTarget &target) {
  if (target.vectorBits == 0)
    return success();
  MLIRContext *context = module.getContext();
  // The canonicalizer's patterns, built once: they fold the bounds of full
  // tiles (affine.min of a divisible extent) into static shapes, so only
  // partial tiles are masked and the blocks of C can be hoisted.
  RewritePatternSet canonicalization(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(canonicalization);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    name.getCanonicalizationPatterns(canonicalization, context);
  scf::populateSCFForLoopCanonicalizationPatterns(canonicalization);
  FrozenRewritePatternSet canonicalize(std::move(canonicalization));

  IRRewriter rewriter(context);
  for (auto body : module.getOps<func::FuncOp>()) {
    SmallVector<linalg::LinalgOp> ops;
    body.walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    if (ops.empty())
      continue;
    for (linalg::LinalgOp op : ops) {
      if (!resultElementType(op).isIntOrFloat() || !hasVectorizableBody(op) ||
          hasSubByteMemref(op))
        continue;
      LogicalResult done = success();
      if (isRowMajorMatmul(op))
        done = tileMatmul(rewriter, body, op, target);
      else if (isRowMajorBatchMatmul(op))
        done = tileBatchMatmul(rewriter, body, op, target);
      else if (isa<linalg::Conv2DNchwFchwOp>(op))
        done = tileNchwConvolution(rewriter, op, target);
      else if (std::optional<unsigned> channels = nhwcChannelLoop(op))
        done = tileConvolution(rewriter, op, *channels, target);
      else if (isVecmat(op))
        done = tileVecmat(rewriter, op, target);
      else if (isInnermostReduction(op) || isInnermostElementwise(op))
        done = tileInnermost(rewriter, op, target);
      if (failed(done))
        return failure();
    }
    if (failed(applyPatternsGreedily(body, canonicalize)))
      return failure();
    decomposeMarkedConvolutions(rewriter, body);
    rewriteNchwTiles(rewriter, body);
    vectorizeMarked(rewriter, body);
    if (failed(applyPatternsGreedily(body, canonicalize)))
      return failure();
    // The tiles' subviews of C are made in the innermost loop; hoisted out,
    // the reads and writes of a C block can be hoisted out of the k loop.
    body.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    hoistAccumulators(rewriter, body);
    if (failed(lowerVectors(body)))
      return failure();
    if (target.nontemporalStores)
      streamLargeOutputs(rewriter, body);
  }
  return success();
}

} // namespace ferry::codegen
