// Slices for convert-input-to-stream: contiguity, bounds and copy kernels.
// See ImportSlices.h.

#include "compiler/Dialect/Stream/Conversion/ImportSlices.h"

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace ferry::stream::input {
namespace {

// The tensor the slice indexes (an extract's source, an insert's
// destination) and the slice's own (possibly rank-reduced) type.
RankedTensorType fullType(OffsetSizeAndStrideOpInterface op) {
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op.getOperation()))
    return extract.getSourceType();
  return cast<tensor::InsertSliceOp>(op.getOperation()).getDestType();
}
RankedTensorType tileType(OffsetSizeAndStrideOpInterface op) {
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op.getOperation()))
    return extract.getType();
  return cast<tensor::InsertSliceOp>(op.getOperation()).getSourceType();
}

// The dims of the full tensor the slice drops (size 1, not in the tile).
llvm::SmallDenseSet<unsigned> droppedDims(OffsetSizeAndStrideOpInterface op) {
  std::optional<llvm::SmallDenseSet<unsigned>> mask =
      computeRankReductionMask(op.getStaticSizes(), tileType(op).getShape());
  return mask ? *mask : llvm::SmallDenseSet<unsigned>();
}

// Each dim of ranked tensor `value`: a constant, or a tensor.dim.
SmallVector<Value> dimsOf(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(
        type.isDynamicDim(d)
            ? tensor::DimOp::create(builder, loc, value, d).getResult()
            : arith::ConstantIndexOp::create(builder, loc, type.getDimSize(d))
                  .getResult());
  return dims;
}

std::string whereOf(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'" +
         locationSuffix(op->getLoc());
}

// Whether dim `d` of the slice is the whole of the full tensor's dim:
// offset 0, stride 1 and a size equal to it (static, or the very value
// `fullDim` when given).
bool isWholeDim(OffsetSizeAndStrideOpInterface op, unsigned d, Value fullDim) {
  if (!isConstantIntValue(op.getMixedOffsets()[d], 0) ||
      !isConstantIntValue(op.getMixedStrides()[d], 1))
    return false;
  OpFoldResult size = op.getMixedSizes()[d];
  RankedTensorType type = fullType(op);
  if (!type.isDynamicDim(d))
    return isConstantIntValue(size, type.getDimSize(d));
  if (auto value = dyn_cast<Value>(size)) {
    if (fullDim)
      return value == fullDim;
    // Before import: the dim read from the full tensor itself.
    auto dimOp = value.getDefiningOp<tensor::DimOp>();
    Value full = isa<tensor::ExtractSliceOp>(op.getOperation())
                     ? op->getOperand(0)
                     : op->getOperand(1);
    return dimOp && dimOp.getSource() == full &&
           dimOp.getConstantIndex() == int64_t(d);
  }
  return false;
}

// Whether the slice is contiguous (ImportSlices.h); `fullDims` may be
// empty (before import: dims read with tensor.dim).
bool isContiguous(OffsetSizeAndStrideOpInterface op, ArrayRef<Value> fullDims) {
  int64_t rank = fullType(op).getRank();
  int64_t partial = 0;
  while (partial + 1 < rank &&
         isConstantIntValue(op.getMixedSizes()[partial], 1))
    ++partial;
  if (rank == 0)
    return true;
  if (!isConstantIntValue(op.getMixedStrides()[partial], 1) &&
      !isConstantIntValue(op.getMixedSizes()[partial], 1))
    return false;
  for (int64_t d = partial + 1; d < rank; ++d)
    if (!isWholeDim(op, d, fullDims.empty() ? Value() : fullDims[d]))
      return false;
  return true;
}

// Whether an offset or a stride of the slice is a negative constant
// (checkSlice refuses it; no rewrite takes it).
bool hasNegativeConstant(OffsetSizeAndStrideOpInterface op) {
  auto negative = [](OpFoldResult value) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    return constant && *constant < 0;
  };
  return llvm::any_of(op.getMixedOffsets(), negative) ||
         llvm::any_of(op.getMixedStrides(), negative);
}

} // namespace

bool isSliceOp(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op);
}

LogicalResult checkSlice(Operation *op) {
  auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
  if (failed(checkRuntimeTensor(op, fullType(slice))) ||
      failed(checkRuntimeTensor(op, tileType(slice))))
    return failure();
  RankedTensorType type = fullType(slice);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    std::optional<int64_t> offset =
        getConstantIntValue(slice.getMixedOffsets()[d]);
    std::optional<int64_t> size = getConstantIntValue(slice.getMixedSizes()[d]);
    std::optional<int64_t> stride =
        getConstantIntValue(slice.getMixedStrides()[d]);
    if (size && *size < 0)
      return op->emitError() << whereOf(op) << ": size " << *size
                             << " of dimension " << d << " is negative";
    // A negative constant is refused whatever else is dynamic (a dynamic
    // one fails the run-time bounds check).
    if ((offset && *offset < 0) || (stride && *stride < 0))
      return op->emitError() << whereOf(op) << ": the "
                             << (offset && *offset < 0 ? "offset " : "stride ")
                             << (offset && *offset < 0 ? *offset : *stride)
                             << " of dimension " << d << " is negative";
    if (!offset || !size || !stride || *size == 0)
      continue;
    int64_t last = *offset + (*size - 1) * *stride;
    if (!type.isDynamicDim(d) && last >= type.getDimSize(d))
      return op->emitError()
             << whereOf(op) << ": dimension " << d << " is out of bounds: "
             << "offset " << *offset << ", size " << *size << ", stride "
             << *stride << " reach index " << last << " of " << type;
  }
  return success();
}

std::optional<Value>
buildContiguousByteOffset(OpBuilder &builder, OffsetSizeAndStrideOpInterface op,
                          ArrayRef<Value> fullDims) {
  if (!isContiguous(op, fullDims))
    return std::nullopt;
  Location loc = op.getLoc();
  RankedTensorType type = fullType(op);
  auto valueOf = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(builder, loc, value);
  };
  Value linear;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value offset = valueOf(op.getMixedOffsets()[d]);
    linear = linear
                 ? arith::AddIOp::create(
                       builder, loc,
                       arith::MulIOp::create(builder, loc, linear, fullDims[d]),
                       offset)
                 : offset;
  }
  int64_t elementBytes =
      hal::elementByteSize(*hal::getRuntimeElementType(type.getElementType()));
  Value bytes = arith::ConstantIndexOp::create(builder, loc, elementBytes);
  if (!linear)
    return arith::ConstantIndexOp::create(builder, loc, 0).getResult();
  return arith::MulIOp::create(builder, loc, linear, bytes).getResult();
}

void buildSliceBoundsChecks(OpBuilder &builder,
                            OffsetSizeAndStrideOpInterface op,
                            ArrayRef<Value> fullDims) {
  Location loc = op.getLoc();
  RankedTensorType type = fullType(op);
  auto valueOf = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(builder, loc, value);
  };
  for (int64_t d = 0; d < type.getRank(); ++d) {
    OpFoldResult offsetOf = op.getMixedOffsets()[d];
    OpFoldResult sizeOf = op.getMixedSizes()[d];
    OpFoldResult strideOf = op.getMixedStrides()[d];
    // All constants: checkSlice decided it.
    if (!type.isDynamicDim(d) && getConstantIntValue(offsetOf) &&
        getConstantIntValue(sizeOf) && getConstantIntValue(strideOf))
      continue;
    if (isWholeDim(op, d, fullDims[d]))
      continue;
    Value offset = valueOf(offsetOf), size = valueOf(sizeOf),
          stride = valueOf(strideOf), dim = fullDims[d];
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    using Pred = arith::CmpIPredicate;
    // size == 0, or size > 0 and offset < dim and (size == 1 or stride <=
    // (dim - 1 - offset) / (size - 1)): the last index, offset + (size - 1)
    // * stride, is below dim, decided without computing it (a large
    // dynamic stride would wrap it into range, and the copy kernel's
    // clamped reads would hide that). Unsigned, so negative offsets and
    // strides are out of bounds too; the divisor is at least 1.
    auto cmp = [&](Pred pred, Value lhs, Value rhs) -> Value {
      return arith::CmpIOp::create(builder, loc, pred, lhs, rhs);
    };
    Value span = arith::SubIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, dim, one), offset);
    Value steps = arith::MaxUIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, size, one), one);
    Value reach = arith::DivUIOp::create(builder, loc, span, steps);
    Value strideOk = arith::OrIOp::create(
        builder, loc, cmp(Pred::ule, size, one), cmp(Pred::ule, stride, reach));
    Value inside = arith::AndIOp::create(
        builder, loc, cmp(Pred::sgt, size, zero),
        arith::AndIOp::create(builder, loc, cmp(Pred::ult, offset, dim),
                              strideOk));
    Value ok =
        arith::OrIOp::create(builder, loc, cmp(Pred::eq, size, zero), inside);
    cf::AssertOp::create(
        builder, loc, ok,
        (whereOf(op) + ": dimension " + Twine(d) +
         " is out of bounds (offset, size and stride reach "
         "past the " +
         (isa<tensor::ExtractSliceOp>(op.getOperation()) ? "source"
                                                         : "destination") +
         ")")
            .str());
  }
}

void buildTileSizeChecks(OpBuilder &builder, OffsetSizeAndStrideOpInterface op,
                         ValueRange tileDims) {
  Location loc = op.getLoc();
  RankedTensorType tile = tileType(op);
  llvm::SmallDenseSet<unsigned> dropped = droppedDims(op);
  unsigned next = 0, dynamic = 0;
  for (auto [d, size] : llvm::enumerate(op.getMixedSizes())) {
    if (dropped.contains(d))
      continue;
    unsigned dim = next++;
    Value tileDim;
    if (tile.isDynamicDim(dim))
      tileDim = tileDims[dynamic++];
    auto sizeValue = dyn_cast<Value>(size);
    if ((!tileDim && !sizeValue) || (tileDim && tileDim == sizeValue))
      continue;
    if (tileDim && !sizeValue && getConstantIntValue(tileDim) &&
        *getConstantIntValue(tileDim) == *getConstantIntValue(size))
      continue;
    Value actual = tileDim ? tileDim
                           : arith::ConstantIndexOp::create(
                                 builder, loc, tile.getDimSize(dim));
    Value same = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, actual,
        getValueOrCreateConstantIndexOp(builder, loc, size));
    cf::AssertOp::create(builder, loc, same,
                         (whereOf(op) + ": the source's dimension " +
                          Twine(dim) + " differs from the slice's size " +
                          "in dimension " + Twine(d))
                             .str());
  }
}

linalg::GenericOp buildStridedCopy(OpBuilder &builder,
                                   OffsetSizeAndStrideOpInterface op,
                                   Value init) {
  Location loc = op.getLoc();
  MLIRContext *context = builder.getContext();
  RankedTensorType tile = tileType(op);
  llvm::SmallDenseSet<unsigned> dropped = droppedDims(op);
  // Loops over the tile's dims; the full tensor is indexed with
  // offset + loop * stride (a dropped dim: its offset). With offset 0 and
  // stride 1 that is the loop itself, and linalg takes the loop's extent
  // from the first operand indexed by it alone: the full tensor's (an
  // extract's input) where it is larger than the tile, so the generic
  // does not verify ("inferred ... dimension #1 to be 5, but found 2").
  // On a static tile dim smaller than the full one, `loop mod size` (the
  // same index) leaves the extent to the tile. On a dynamic one, `loop +
  // w` does, w being one more loop of a single iteration whose extent a
  // shape-only one-element input gives (as pad and concat copy, a window:
  // the import checks that the full tensor holds what the loops reach).
  RankedTensorType full = fullType(op);
  unsigned rank = tile.getRank();
  AffineExpr window = getAffineDimExpr(rank, context);
  bool windowed = false;
  SmallVector<AffineExpr> fullIndex;
  unsigned loop = 0;
  for (int64_t d = 0; d < full.getRank(); ++d) {
    int64_t offset = *getConstantIntValue(op.getMixedOffsets()[d]);
    int64_t stride = *getConstantIntValue(op.getMixedStrides()[d]);
    if (dropped.contains(d)) {
      fullIndex.push_back(getAffineConstantExpr(offset, context));
      continue;
    }
    int64_t size = tile.getDimSize(loop);
    AffineExpr index = getAffineDimExpr(loop++, context);
    if (offset == 0 && stride == 1 && ShapedType::isDynamic(size)) {
      index = index + window;
      windowed = true;
    } else if (offset == 0 && stride == 1 &&
               (full.isDynamicDim(d) || full.getDimSize(d) != size)) {
      index = index % size;
    }
    fullIndex.push_back(index * stride + offset);
  }
  unsigned loops = rank + (windowed ? 1 : 0);
  SmallVector<AffineExpr> tileIndex;
  for (unsigned d = 0; d < rank; ++d)
    tileIndex.push_back(getAffineDimExpr(d, context));
  AffineMap identity = AffineMap::get(loops, 0, tileIndex, context);
  AffineMap strided = AffineMap::get(loops, 0, fullIndex, context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  bool extract = isa<tensor::ExtractSliceOp>(op.getOperation());
  SmallVector<Value> inputs = {op->getOperand(0)};
  Value output = extract ? init : op->getOperand(1);
  SmallVector<AffineMap> maps = extract ? SmallVector<AffineMap>{strided}
                                        : SmallVector<AffineMap>{identity};
  if (windowed) {
    iterators.push_back(utils::IteratorType::reduction);
    auto windowShape = tensor::EmptyOp::create(
        builder, loc, ArrayRef<int64_t>{1}, tile.getElementType());
    stream::setAffinity(windowShape, stream::getAffinity(op));
    inputs.push_back(windowShape);
    maps.push_back(AffineMap::get(loops, 0, window));
  }
  maps.push_back(extract ? identity : strided);
  auto copy = linalg::GenericOp::create(
      builder, loc, TypeRange{output.getType()}, inputs, ValueRange{output},
      maps, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args.front());
      });
  copy->setAttr(codegen::kCopyKernelAttr, builder.getUnitAttr());
  return copy;
}

bool needsFlatCopy(Operation *op) {
  auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(op);
  if (!slice || !isSliceOp(op) || isContiguous(slice, {}) ||
      hasNegativeConstant(slice))
    return false;
  RankedTensorType full = fullType(slice);
  return llvm::all_of(slice.getMixedStrides(),
                      [](OpFoldResult s) { return getConstantIntValue(s); }) &&
         llvm::none_of(full.getShape().drop_front(), ShapedType::isDynamic) &&
         !llvm::all_of(slice.getMixedOffsets(), [](OpFoldResult offset) {
           return getConstantIntValue(offset).has_value();
         });
}

// The run-time checks before a slice's copy kernel: each dim of the full
// tensor in bounds and, for an insert, the tile of the slice's size.
// Returns the full tensor's dims.
SmallVector<Value> buildCopyChecks(OpBuilder &builder,
                                   OffsetSizeAndStrideOpInterface slice) {
  Operation *op = slice.getOperation();
  Location loc = op->getLoc();
  bool extract = isa<tensor::ExtractSliceOp>(op);
  SmallVector<Value> fullDims =
      dimsOf(builder, loc, op->getOperand(extract ? 0 : 1));
  buildSliceBoundsChecks(builder, slice, fullDims);
  if (!extract) {
    SmallVector<Value> tileDims;
    RankedTensorType tile = tileType(slice);
    for (int64_t d = 0; d < tile.getRank(); ++d)
      if (tile.isDynamicDim(d))
        tileDims.push_back(
            tensor::DimOp::create(builder, loc, op->getOperand(0), d));
    buildTileSizeChecks(builder, slice, tileDims);
  }
  return fullDims;
}

void decomposeFlatCopy(Operation *op) {
  auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
  Location loc = op->getLoc();
  OpBuilder builder(op);
  MLIRContext *context = builder.getContext();
  AffinityAttr affinity = stream::getAffinity(op);
  auto place = [&](Operation *made) {
    if (affinity)
      stream::setAffinity(made, affinity);
    return made;
  };
  bool extract = isa<tensor::ExtractSliceOp>(op);
  Value full = extract ? op->getOperand(0) : op->getOperand(1);
  RankedTensorType fullTy = fullType(slice);
  RankedTensorType tile = tileType(slice);
  int64_t rank = fullTy.getRank();
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<Value> fullDims = buildCopyChecks(builder, slice);

  // Elements between consecutive indices of each dim of the full tensor.
  SmallVector<int64_t> pitch(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    pitch[d] = pitch[d + 1] * fullTy.getDimSize(d + 1);
  // The slice's first element, and the length of the flat range from it to
  // its last (0 for an empty slice).
  Value start = index(0), length = index(1), empty;
  llvm::SmallDenseSet<unsigned> dropped = droppedDims(slice);
  SmallVector<AffineExpr> flatIndex;
  unsigned loop = 0;
  for (int64_t d = 0; d < rank; ++d) {
    Value offset = getValueOrCreateConstantIndexOp(builder, loc,
                                                   slice.getMixedOffsets()[d]);
    start = arith::AddIOp::create(
        builder, loc, start,
        arith::MulIOp::create(builder, loc, offset, index(pitch[d])));
    int64_t step = *getConstantIntValue(slice.getMixedStrides()[d]) * pitch[d];
    Value size =
        getValueOrCreateConstantIndexOp(builder, loc, slice.getMixedSizes()[d]);
    Value last = arith::MulIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, size, index(1)),
        index(step));
    length = arith::AddIOp::create(builder, loc, length, last);
    Value none = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       size, index(0));
    empty = empty ? arith::OrIOp::create(builder, loc, empty, none) : none;
    if (!dropped.contains(d))
      flatIndex.push_back(getAffineDimExpr(loop++, context) * step);
  }
  if (empty)
    length = arith::SelectOp::create(builder, loc, empty, index(0), length);

  // The full tensor as one dim (metadata), and the range the slice spans
  // in it (contiguous: a view read in place, or an update).
  auto flatType =
      RankedTensorType::get({fullTy.hasStaticShape() ? fullTy.getNumElements()
                                                     : ShapedType::kDynamic},
                            fullTy.getElementType());
  SmallVector<ReassociationIndices> all = {
      llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  Value flat =
      place(tensor::CollapseShapeOp::create(builder, loc, flatType, full, all))
          ->getResult(0);
  SmallVector<OpFoldResult> rangeOffsets = {start}, rangeSizes = {length},
                            unit = {builder.getIndexAttr(1)};
  Value range = place(tensor::ExtractSliceOp::create(
                          builder, loc, flat, rangeOffsets, rangeSizes, unit))
                    ->getResult(0);

  unsigned loops = tile.getRank();
  AffineExpr sum = getAffineConstantExpr(0, context);
  for (AffineExpr expr : flatIndex)
    sum = sum + expr;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, context);
  AffineMap flatMap = AffineMap::get(loops, 0, sum);
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  Value input = range, init = range;
  if (extract) {
    // A fresh tile, its dynamic sizes the slice's.
    SmallVector<Value> dynamic;
    unsigned k = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (dropped.contains(d))
        continue;
      if (tile.isDynamicDim(k++))
        dynamic.push_back(getValueOrCreateConstantIndexOp(
            builder, loc, slice.getMixedSizes()[d]));
    }
    init = place(tensor::EmptyOp::create(builder, loc, tile, dynamic))
               ->getResult(0);
  } else {
    input = op->getOperand(0);
  }
  auto copy = linalg::GenericOp::create(
      builder, loc, TypeRange{init.getType()}, ValueRange{input},
      ValueRange{init},
      extract ? ArrayRef<AffineMap>{flatMap, identity}
              : ArrayRef<AffineMap>{identity, flatMap},
      iterators, [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args.front());
      });
  place(copy);
  copy->setAttr(codegen::kCopyKernelAttr, builder.getUnitAttr());
  if (extract) {
    op->getResult(0).replaceAllUsesWith(copy.getResult(0));
    op->erase();
    return;
  }
  Value written =
      place(tensor::InsertSliceOp::create(builder, loc, copy.getResult(0), flat,
                                          rangeOffsets, rangeSizes, unit))
          ->getResult(0);
  SmallVector<OpFoldResult> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(fullTy.isDynamicDim(d)
                        ? OpFoldResult(fullDims[d])
                        : builder.getIndexAttr(fullTy.getDimSize(d)));
  Value result = place(tensor::ExpandShapeOp::create(builder, loc, fullTy,
                                                     written, all, shape))
                     ->getResult(0);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

bool needsGatherCopy(Operation *op) {
  auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(op);
  if (!slice || !isSliceOp(op) || isContiguous(slice, {}) ||
      hasNegativeConstant(slice) || needsFlatCopy(op))
    return false;
  auto dynamic = [](OpFoldResult value) {
    return !getConstantIntValue(value).has_value();
  };
  return llvm::any_of(slice.getMixedOffsets(), dynamic) ||
         llvm::any_of(slice.getMixedStrides(), dynamic);
}

void decomposeGatherCopy(Operation *op) {
  auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
  Location loc = op->getLoc();
  OpBuilder builder(op);
  AffinityAttr affinity = stream::getAffinity(op);
  auto place = [&](auto made) {
    if (affinity)
      stream::setAffinity(made, affinity);
    return made;
  };
  bool extract = isa<tensor::ExtractSliceOp>(op);
  Value full = extract ? op->getOperand(0) : op->getOperand(1);
  Value tileValue = extract ? Value() : op->getOperand(0);
  RankedTensorType fullTy = fullType(slice);
  RankedTensorType tile = tileType(slice);
  int64_t rank = fullTy.getRank();
  auto index = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  SmallVector<Value> fullDims = buildCopyChecks(builder, slice);

  llvm::SmallDenseSet<unsigned> dropped = droppedDims(slice);
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  SmallVector<OpFoldResult> strides = slice.getMixedStrides();
  // The tile's dynamic sizes (the slice's, in the dims it keeps).
  SmallVector<Value> tileSizes;
  for (int64_t d = 0, k = 0; d < rank; ++d)
    if (!dropped.contains(d) && tile.isDynamicDim(k++))
      tileSizes.push_back(cast<Value>(sizes[d]));
  // Inside the body: a constant as a constant of the body, a value as the
  // scalar it is (FormDispatches passes it as a 0-d tensor input).
  auto valueIn = [&](OpBuilder &b, OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(b, loc, value);
  };
  using Pred = arith::CmpIPredicate;

  // An extract: a generic over the tile reading the source at offset +
  // loop * stride in each dim (a gather), into a fresh tile.
  auto buildExtract = [&](OpBuilder &b) -> Value {
    Value init = place(tensor::EmptyOp::create(b, loc, tile, tileSizes));
    unsigned loops = tile.getRank();
    auto copy = linalg::GenericOp::create(
        b, loc, TypeRange{tile}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{
            AffineMap::getMultiDimIdentityMap(loops, b.getContext())},
        SmallVector<utils::IteratorType>(loops, utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
          SmallVector<Value> at;
          unsigned loop = 0;
          for (int64_t d = 0; d < rank; ++d) {
            Value offset = valueIn(nested, offsets[d]);
            if (dropped.contains(d)) {
              at.push_back(offset);
              continue;
            }
            Value i = linalg::IndexOp::create(nested, nestedLoc, loop++);
            Value step = nested.createOrFold<arith::MulIOp>(
                nestedLoc, i, valueIn(nested, strides[d]));
            at.push_back(
                nested.createOrFold<arith::AddIOp>(nestedLoc, offset, step));
          }
          Value element =
              tensor::ExtractOp::create(nested, nestedLoc, full, at);
          linalg::YieldOp::create(nested, nestedLoc, element);
        });
    copy->setAttr(codegen::kCopyKernelAttr, b.getUnitAttr());
    return place(copy).getResult(0);
  };

  // An insert: a generic over the destination, written in place, whose
  // body takes the tile's element where the position is offset + q *
  // stride with 0 <= q < size in every dim (q = (position - offset) /
  // max(stride, 1), unsigned: no division by zero; a dropped dim matches
  // its offset) and keeps the destination's element elsewhere. The tile
  // is read at q whether it matches or not (a gather, clamped into the
  // tile's bounds: FormDispatches.h).
  auto buildInsert = [&](OpBuilder &b) -> Value {
    auto copy = linalg::GenericOp::create(
        b, loc, TypeRange{fullTy}, ValueRange{}, ValueRange{full},
        ArrayRef<AffineMap>{
            AffineMap::getMultiDimIdentityMap(rank, b.getContext())},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          auto cmp = [&](Pred pred, Value lhs, Value rhs) -> Value {
            return arith::CmpIOp::create(nested, nestedLoc, pred, lhs, rhs);
          };
          auto both = [&](Value lhs, Value rhs) -> Value {
            return lhs ? arith::AndIOp::create(nested, nestedLoc, lhs, rhs)
                             .getResult()
                       : rhs;
          };
          Value zero = index(nested, 0);
          Value hit;
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d) {
            Value position = linalg::IndexOp::create(nested, nestedLoc, d);
            Value relative = nested.createOrFold<arith::SubIOp>(
                nestedLoc, position, valueIn(nested, offsets[d]));
            if (dropped.contains(d)) {
              hit = both(hit, cmp(Pred::eq, relative, zero));
              continue;
            }
            Value size = valueIn(nested, sizes[d]);
            std::optional<int64_t> constant = getConstantIntValue(strides[d]);
            if (constant == 1) {
              // Unsigned: a position before the offset is no match.
              hit = both(hit, cmp(Pred::ult, relative, size));
              at.push_back(relative);
              continue;
            }
            Value stride = valueIn(nested, strides[d]);
            Value divisor =
                constant ? index(nested, std::max<int64_t>(*constant, 1))
                         : arith::MaxUIOp::create(nested, nestedLoc, stride,
                                                  index(nested, 1))
                               .getResult();
            Value q =
                arith::DivUIOp::create(nested, nestedLoc, relative, divisor);
            Value exact = cmp(
                Pred::eq, arith::MulIOp::create(nested, nestedLoc, q, stride),
                relative);
            hit = both(hit, cmp(Pred::sge, relative, zero));
            hit = both(hit, exact);
            hit = both(hit, cmp(Pred::ult, q, size));
            at.push_back(q);
          }
          Value element =
              tensor::ExtractOp::create(nested, nestedLoc, tileValue, at);
          Value picked = arith::SelectOp::create(nested, nestedLoc, hit,
                                                 element, args.back());
          linalg::YieldOp::create(nested, nestedLoc, picked);
        });
    copy->setAttr(codegen::kCopyKernelAttr, b.getUnitAttr());
    return place(copy).getResult(0);
  };

  // A gather of a tensor with an empty dim fails its check
  // (FormDispatches.h), though the kernel would read nothing: where the
  // tile may be empty and so may the tensor read (an extract's source,
  // an insert's tile), an empty tile skips the kernel (an empty tensor,
  // or the destination as it is).
  Value empty;
  for (int64_t d = 0; d < rank; ++d) {
    if (dropped.contains(d))
      continue;
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (size && *size > 0)
      continue;
    Value none = builder.createOrFold<arith::CmpIOp>(
        loc, Pred::eq, valueIn(builder, sizes[d]), index(builder, 0));
    empty = empty ? builder.createOrFold<arith::OrIOp>(loc, empty, none) : none;
  }
  bool readMayBeEmpty =
      !extract || llvm::any_of(fullTy.getShape(), [](int64_t size) {
        return size == 0 || ShapedType::isDynamic(size);
      });
  Value result;
  if (empty && readMayBeEmpty) {
    auto guard =
        scf::IfOp::create(builder, loc, TypeRange{op->getResultTypes()}, empty,
                          /*withElseRegion=*/true);
    OpBuilder branch = OpBuilder::atBlockEnd(guard.thenBlock());
    Value nothing =
        extract ? place(tensor::EmptyOp::create(branch, loc, tile, tileSizes))
                      .getResult()
                : full;
    scf::YieldOp::create(branch, loc, nothing);
    branch.setInsertionPointToEnd(guard.elseBlock());
    scf::YieldOp::create(branch, loc,
                         extract ? buildExtract(branch) : buildInsert(branch));
    result = guard.getResult(0);
  } else {
    result = extract ? buildExtract(builder) : buildInsert(builder);
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
}

} // namespace ferry::stream::input
