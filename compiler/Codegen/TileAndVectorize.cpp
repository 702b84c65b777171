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
// - reductions over the innermost loop (a row sum): 4W elements of a row at
//   a time into vector.multi_reduction, the accumulator hoisted out of the
//   loop; the horizontal sums may be reassociated (partial sums of 4W
//   lanes: the result differs from the sequential sum by rounding only).
// - elementwise ops whose operands all run along the innermost loop (or do
//   not depend on it): tiled by W along it and vectorized, so each register
//   is loaded, computed and stored before the next (LLVM unrolls the loop
//   but keeps that order). Tiles of 4W became 4 loads, the payload on 4
//   registers, then 4 stores: an 8-op chain over 16M f32 with streaming
//   stores ran at 1.0x memcpy's bandwidth instead of 1.25x (measured on the
//   extracted kernel, CPU time in the same process).
//
// Each tiling loop's last partial tile is peeled off, so the main loops'
// tiles have static shapes and are vectorized without masks; partial tiles,
// like any other op, are left for linalg-to-loops.
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

/// All loops parallel but the innermost, a reduction; one input and one
/// init, the input read along the innermost loop.
bool isInnermostReduction(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  if (loops < 1 || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray().back()))
    return false;
  AffineMap input = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  return input.isProjectedPermutation() && input.getNumResults() > 0 &&
         input.getResults().back() ==
             getAffineDimExpr(loops - 1, op.getContext());
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
FailureOr<linalg::LinalgOp> tile(RewriterBase &rewriter, linalg::LinalgOp op,
                                 ArrayRef<int64_t> sizes) {
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes).setLoopType(linalg::LinalgTilingLoopType::Loops);
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
    if (forOp)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
  return tiled->op;
}

constexpr llvm::StringLiteral kVectorize = "ferry.vectorize";

/// Marks `op` (a tile) to be vectorized once the bounds of the tiles are
/// folded (vectorizeMarked).
void markForVectors(linalg::LinalgOp op) {
  op->setAttr(kVectorize, UnitAttr::get(op.getContext()));
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
    op->removeAttr(kVectorize);
    if (hasDynamicShape(op) || failed(linalg::vectorizeOpPrecondition(op)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                          /*inputScalableVecDims=*/{},
                          /*vectorizeNDExtract=*/false,
                          /*flatten1DDepthwiseConv=*/false,
                          /*assumeDynamicDimsMatchVecSizes=*/false,
                          /*createNamedContraction=*/true);
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

LogicalResult tileMatmul(RewriterBase &rewriter, func::FuncOp body,
                         linalg::LinalgOp op, const VectorTarget &target) {
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
  FailureOr<linalg::LinalgOp> panel = tile(rewriter, op, {0, width, depth});
  if (failed(panel))
    return op->emitOpError("could not be tiled into panels of B");
  packB(rewriter, body, *panel, depth, width);
  FailureOr<linalg::LinalgOp> block =
      tile(rewriter, *panel, {kMatmulRows, width, 1});
  if (failed(block))
    return panel->getOperation()->emitOpError(
        "could not be tiled into register blocks");
  markForVectors(*block);
  return success();
}

/// A row reduction (4W lanes of the innermost loop at a time: four
/// independent partial sums) or an elementwise op (W lanes, see the top of
/// the file), one iteration of every other loop.
LogicalResult tileInnermost(RewriterBase &rewriter, linalg::LinalgOp op,
                            const VectorTarget &target) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  int64_t registers = isInnermostReduction(op) ? 4 : 1;
  sizes.back() = registers * lanes(target, resultElementType(op));
  FailureOr<linalg::LinalgOp> tiled = tile(rewriter, op, sizes);
  if (failed(tiled))
    return op->emitOpError("could not be tiled for vectorization");
  markForVectors(*tiled);
  return success();
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
    vector::populateVectorReductionToContractPatterns(patterns);
    if (failed(apply(body, std::move(patterns))))
      return failure();
  }
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
/// vector and scalar stores, linalg ops whose payload does not read their
/// output, metadata; std::nullopt if anything may read it.
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
  if (!isRowMajorMatmul(op))
    return tile;
  int64_t rows = op.getStaticLoopRanges()[0];
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
      else if (isInnermostReduction(op) || isInnermostElementwise(op))
        done = tileInnermost(rewriter, op, target);
      if (failed(done))
        return failure();
    }
    if (failed(applyPatternsGreedily(body, canonicalize)))
      return failure();
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
