// Tensor ops of the input language as ops convert-input-to-stream already
// imports; see ImportTensorOps.h.

#include "compiler/Dialect/Stream/Conversion/ImportTensorOps.h"

#include "compiler/Dialect/Stream/Conversion/ImportSlices.h"
#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace ferry::stream::input {
namespace {

class Decomposer {
public:
  explicit Decomposer(Operation *op) : op(op), builder(op) {}

  // Ops made here run where `op` was placed.
  template <typename T> T place(T made) {
    if (Attribute affinity = op->getAttr(kAffinityAttrName))
      made->setAttr(kAffinityAttrName, affinity);
    return made;
  }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(builder, op->getLoc(), value);
  }

  // Dimension `d` of `tensor` as an index value.
  Value dim(Value tensor, int64_t d) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!type.isDynamicDim(d))
      return index(type.getDimSize(d));
    return tensor::DimOp::create(builder, op->getLoc(), tensor, d);
  }

  Value empty(RankedTensorType type, ValueRange dynamicSizes) {
    return place(tensor::EmptyOp::create(builder, op->getLoc(), type,
                                         dynamicSizes))
        .getResult();
  }

  Value fill(Value value, Value init) {
    return place(linalg::FillOp::create(builder, op->getLoc(),
                                        ValueRange{value}, ValueRange{init}))
        .getResult(0);
  }

  // Copies `source` into `init` at `offsets` (one per dimension, static):
  // a generic over the source whose `outs` map adds the offsets. A
  // dimension where `init` may be larger (`grows`) is indexed as a window
  // (`d + w + offset` with `w` a loop of one iteration, the extent of a
  // shape-only one-element input), so the import checks only that the
  // source fits, not that the two extents are equal (LinalgOperands.h).
  Value copyInto(Value source, Value init, ArrayRef<int64_t> offsets,
                 ArrayRef<bool> grows) {
    auto type = cast<RankedTensorType>(source.getType());
    MLIRContext *context = builder.getContext();
    unsigned rank = type.getRank();
    AffineExpr window = getAffineDimExpr(rank, context);
    SmallVector<AffineExpr> shifted;
    for (unsigned d = 0; d < rank; ++d)
      shifted.push_back(grows[d]
                            ? getAffineDimExpr(d, context) + window + offsets[d]
                            : getAffineDimExpr(d, context) + offsets[d]);
    SmallVector<AffineExpr> sourceExprs;
    for (unsigned d = 0; d < rank; ++d)
      sourceExprs.push_back(getAffineDimExpr(d, context));
    AffineMap sourceMap = AffineMap::get(rank + 1, 0, sourceExprs, context);
    AffineMap windowMap = AffineMap::get(rank + 1, 0, window);
    AffineMap outMap = AffineMap::get(rank + 1, 0, shifted, context);
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    Value windowShape =
        empty(RankedTensorType::get({1}, type.getElementType()), {});
    auto generic = linalg::GenericOp::create(
        builder, op->getLoc(), TypeRange{init.getType()},
        ValueRange{source, windowShape}, ValueRange{init},
        ArrayRef<AffineMap>{sourceMap, windowMap, outMap}, iterators,
        /*doc=*/"", /*libraryCall=*/"",
        [](OpBuilder &nested, Location loc, ValueRange args) {
          linalg::YieldOp::create(nested, loc, args.front());
        });
    return place(generic).getResult(0);
  }

  void replace(Value value) {
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }

  Operation *op;
  OpBuilder builder;
};

void decomposeSplat(tensor::SplatOp splat) {
  Decomposer d(splat);
  d.replace(d.fill(splat.getInput(),
                   d.empty(splat.getType(), splat.getDynamicSizes())));
}

// Elements that are all constants make a dense constant; otherwise each
// element fills a one-element tensor and one generic over the result picks,
// for each linear index, the input of that element.
void decomposeFromElements(tensor::FromElementsOp op) {
  Decomposer d(op);
  auto type = cast<RankedTensorType>(op.getType());
  SmallVector<Attribute> constants;
  for (Value element : op.getElements()) {
    Attribute constant;
    if (!matchPattern(element, m_Constant(&constant)))
      break;
    constants.push_back(constant);
  }
  if (constants.size() == op.getElements().size()) {
    d.replace(d.place(arith::ConstantOp::create(
                          d.builder, op.getLoc(),
                          DenseElementsAttr::get(type, ArrayRef(constants))))
                  .getResult());
    return;
  }
  if (op.getElements().size() == 1) {
    d.replace(d.fill(op.getElements().front(), d.empty(type, {})));
    return;
  }
  auto one = RankedTensorType::get({1}, type.getElementType());
  SmallVector<Value> inputs;
  for (Value element : op.getElements())
    inputs.push_back(d.fill(element, d.empty(one, {})));
  MLIRContext *context = op.getContext();
  unsigned rank = type.getRank();
  AffineMap first = AffineMap::get(rank, 0, getAffineConstantExpr(0, context));
  SmallVector<AffineMap> maps(inputs.size(), first);
  maps.push_back(d.builder.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  ArrayRef<int64_t> shape = type.getShape();
  auto generic = linalg::GenericOp::create(
      d.builder, op.getLoc(), TypeRange{type}, inputs,
      ValueRange{d.empty(type, {})}, maps, iterators, /*doc=*/"",
      /*libraryCall=*/"", [&](OpBuilder &b, Location loc, ValueRange args) {
        Value linear;
        for (unsigned k = 0; k < rank; ++k) {
          Value at = linalg::IndexOp::create(b, loc, k);
          linear =
              linear ? arith::AddIOp::create(
                           b, loc,
                           arith::MulIOp::create(b, loc, linear,
                                                 arith::ConstantIndexOp::create(
                                                     b, loc, shape[k])),
                           at)
                     : at;
        }
        Value picked = args[inputs.size() - 1];
        for (int64_t i = int64_t(inputs.size()) - 2; i >= 0; --i) {
          Value is =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, linear,
                                    arith::ConstantIndexOp::create(b, loc, i));
          picked = arith::SelectOp::create(b, loc, is, args[i], picked);
        }
        linalg::YieldOp::create(b, loc, picked);
      });
  d.replace(d.place(generic).getResult(0));
}

// A generic over `init` yielding for each element what the region of `pad`
// yields for its indices (a padding value computed per element).
Value generatePadding(Decomposer &d, tensor::PadOp pad, Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  Block &region = pad.getRegion().front();
  auto generic = linalg::GenericOp::create(
      d.builder, pad.getLoc(), TypeRange{type}, ValueRange{}, ValueRange{init},
      {d.builder.getMultiDimIdentityMap(type.getRank())},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location loc, ValueRange) {
        IRMapping mapping;
        for (BlockArgument arg : region.getArguments())
          mapping.map(arg,
                      linalg::IndexOp::create(nested, loc, arg.getArgNumber()));
        for (Operation &op : region.without_terminator())
          nested.clone(op, mapping);
        Value yielded =
            cast<tensor::YieldOp>(region.getTerminator()).getValue();
        linalg::YieldOp::create(nested, loc, mapping.lookupOrDefault(yielded));
      });
  return d.place(generic).getResult(0);
}

// Whether the source of `pad` is one contiguous range of its result: after
// the source's leading dims of size 1 and one more, no dim is padded.
bool isContiguousPad(tensor::PadOp pad) {
  RankedTensorType source = pad.getSourceType();
  int64_t partial = 0;
  while (partial + 1 < source.getRank() && source.getDimSize(partial) == 1)
    ++partial;
  for (int64_t k = partial + 1; k < source.getRank(); ++k)
    if (!isConstantIntValue(pad.getMixedLowPad()[k], 0) ||
        !isConstantIntValue(pad.getMixedHighPad()[k], 0))
      return false;
  return true;
}

// A fill of the padding value (or a generic computing it per element), then
// the source copied into the interior: by a generic indexing its
// destination with the low padding (static), or, where the low padding is
// dynamic, by an insert_slice (imported as an update of a byte range: the
// source must be one contiguous range of the result).
LogicalResult decomposePad(tensor::PadOp pad) {
  SmallVector<int64_t> low;
  for (OpFoldResult size : pad.getMixedLowPad())
    low.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  bool dynamicLow = llvm::is_contained(low, ShapedType::kDynamic);
  if (dynamicLow && !isContiguousPad(pad))
    return pad.emitError()
           << "'tensor.pad' with dynamic low padding is not supported unless "
              "the source is one contiguous range of the result (only its "
              "leading dims of size 1 and the one after them padded)";
  Decomposer d(pad);
  RankedTensorType type = pad.getResultType();
  SmallVector<OpFoldResult> high = pad.getMixedHighPad();
  auto asValue = [&](OpFoldResult size) -> Value {
    return isa<Value>(size) ? cast<Value>(size)
                            : d.index(*getConstantIntValue(size));
  };
  SmallVector<Value> sizes;
  for (int64_t k = 0; k < type.getRank(); ++k) {
    if (!type.isDynamicDim(k))
      continue;
    Value size = d.dim(pad.getSource(), k);
    if (!isConstantIntValue(pad.getMixedLowPad()[k], 0))
      size = arith::AddIOp::create(d.builder, pad.getLoc(), size,
                                   asValue(pad.getMixedLowPad()[k]));
    if (!isConstantIntValue(high[k], 0))
      size = arith::AddIOp::create(d.builder, pad.getLoc(), size,
                                   asValue(high[k]));
    sizes.push_back(size);
  }
  Value init = d.empty(type, sizes);
  Value padding = pad.getConstantPaddingValue();
  Value filled =
      padding ? d.fill(padding, init) : generatePadding(d, pad, init);
  if (dynamicLow) {
    // An unpadded dim is the result's whole dim (its tensor.dim: the
    // import's check of contiguity recognizes it).
    SmallVector<OpFoldResult> extents;
    RankedTensorType source = pad.getSourceType();
    for (int64_t k = 0; k < type.getRank(); ++k) {
      bool padded = !isConstantIntValue(pad.getMixedLowPad()[k], 0) ||
                    !isConstantIntValue(high[k], 0);
      if (!source.isDynamicDim(k))
        extents.push_back(d.builder.getIndexAttr(source.getDimSize(k)));
      else
        extents.push_back(d.dim(padded ? pad.getSource() : filled, k));
    }
    SmallVector<OpFoldResult> ones(type.getRank(), d.builder.getIndexAttr(1));
    d.replace(d.place(tensor::InsertSliceOp::create(
                          d.builder, pad.getLoc(), pad.getSource(), filled,
                          pad.getMixedLowPad(), extents, ones))
                  .getResult());
    return success();
  }
  SmallVector<bool> grows;
  for (auto [k, size] : llvm::enumerate(high))
    grows.push_back(low[k] != 0 || getConstantIntValue(size) != 0);
  d.replace(d.copyInto(pad.getSource(), filled, low, grows));
  return success();
}

LogicalResult decomposeConcat(tensor::ConcatOp concat) {
  int64_t axis = int64_t(concat.getDim());
  SmallVector<int64_t> offsets;
  int64_t offset = 0;
  for (Value input : concat.getInputs()) {
    offsets.push_back(offset);
    int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(axis);
    if (ShapedType::isDynamic(size) && input != concat.getInputs().back())
      return concat.emitError()
             << "'tensor.concat' of an input of dynamic size in dimension "
             << axis
             << " (the concatenated one) is not supported here: only the "
                "last input's may be dynamic, unless every dimension before "
                "the concatenated one has size 1 (then each input is one "
                "contiguous range of the result)";
    offset += ShapedType::isDynamic(size) ? 0 : size;
  }
  Decomposer d(concat);
  RankedTensorType type = concat.getResultType();
  SmallVector<Value> sizes;
  for (int64_t k = 0; k < type.getRank(); ++k) {
    if (!type.isDynamicDim(k))
      continue;
    if (k != axis) {
      sizes.push_back(d.dim(concat.getInputs().front(), k));
      continue;
    }
    Value total = d.index(offset);
    total = arith::AddIOp::create(d.builder, concat.getLoc(), total,
                                  d.dim(concat.getInputs().back(), k));
    sizes.push_back(total);
  }
  Value result = d.empty(type, sizes);
  for (auto [input, start] : llvm::zip(concat.getInputs(), offsets)) {
    SmallVector<int64_t> at(type.getRank(), 0);
    SmallVector<bool> grows(type.getRank(), false);
    at[axis] = start;
    grows[axis] = true;
    result = d.copyInto(input, result, at, grows);
  }
  d.replace(result);
  return success();
}

} // namespace

bool isContiguousConcat(Operation *op) {
  auto concat = dyn_cast<tensor::ConcatOp>(op);
  if (!concat)
    return false;
  ArrayRef<int64_t> shape = concat.getResultType().getShape();
  return llvm::all_of(shape.take_front(concat.getDim()),
                      [](int64_t size) { return size == 1; });
}

bool decomposeTensorOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    // Inside a linalg body nothing is rewritten: the check refuses it.
    if (op->getParentOfType<linalg::LinalgOp>())
      return;
    if ((isa<tensor::SplatOp, tensor::FromElementsOp, tensor::PadOp,
             tensor::ConcatOp>(op) &&
         !isContiguousConcat(op)) ||
        needsFlatCopy(op) || needsGatherCopy(op))
      ops.push_back(op);
  });
  bool ok = true;
  for (Operation *op : ops) {
    // Tensors of other element types are refused by the check that follows.
    if (!isRuntimeTensor(op->getResult(0).getType()))
      continue;
    if (auto splat = dyn_cast<tensor::SplatOp>(op))
      decomposeSplat(splat);
    else if (auto elements = dyn_cast<tensor::FromElementsOp>(op))
      decomposeFromElements(elements);
    else if (auto pad = dyn_cast<tensor::PadOp>(op))
      ok &= succeeded(decomposePad(pad));
    else if (auto concat = dyn_cast<tensor::ConcatOp>(op))
      ok &= succeeded(decomposeConcat(concat));
    else if (needsFlatCopy(op))
      decomposeFlatCopy(op);
    else
      decomposeGatherCopy(op);
  }
  return ok;
}

LogicalResult checkMetadataTensorOp(Operation *op) {
  if (failed(checkRuntimeTensor(op, op->getOperand(0).getType())))
    return failure();
  return checkRuntimeTensor(op, op->getResult(0).getType());
}

SmallVector<Value> importCastDims(OpBuilder &builder, tensor::CastOp op,
                                  function_ref<Value(int64_t)> sourceDim) {
  Location loc = op.getLoc();
  auto source = cast<RankedTensorType>(op.getSource().getType());
  auto result = cast<RankedTensorType>(op.getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < result.getRank(); ++d) {
    if (result.isDynamicDim(d)) {
      dims.push_back(sourceDim(d));
      continue;
    }
    if (!source.isDynamicDim(d))
      continue; // the verifier checked static against static
    Value expected =
        arith::ConstantIndexOp::create(builder, loc, result.getDimSize(d));
    Value same = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       sourceDim(d), expected);
    cf::AssertOp::create(builder, loc, same,
                         ("'tensor.cast'" + locationSuffix(loc) +
                          ": dimension " + Twine(d) + " of the source is not " +
                          Twine(result.getDimSize(d)))
                             .str());
  }
  return dims;
}

} // namespace ferry::stream::input
