// What convert-input-to-stream accepts; see ImportSupport.h.

#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/Conversion/ImportSlices.h"

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Dialect/HAL/IR/HALDialect.h"
#include "compiler/Dialect/Stream/Analysis/ResourceUsage.h"
#include "compiler/Dialect/Stream/Conversion/ImportTensorOps.h"
#include "compiler/Dialect/Stream/Conversion/LinalgOperands.h"
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Utils/ABI.h"
#include "compiler/Utils/ElementTypes.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace ferry::stream::input {

bool isTensor(Type type) { return isa<TensorType>(type); }

bool isBoundaryScalar(Type type) {
  if (type.isIndex())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() <= 64;
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type);
}

bool isBodyScalar(Type type) {
  return type.isIndex() ||
         (!isa<ShapedType>(type) && hal::getRuntimeElementType(type));
}

bool hasTensorTypes(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

bool isRuntimeTensor(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && hal::getRuntimeElementType(tensorType.getElementType());
}

LogicalResult checkRuntimeTensor(Operation *op, Type type) {
  if (isRuntimeTensor(type))
    return success();
  return op->emitError() << "'" << op->getName() << "' on " << type
                         << " is not supported: only ranked tensors of "
                         << hal::kElementTypeList << " are";
}

DenseElementsAttr getSplatConstant(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return {};
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat() && isTensor(constant.getType()) ? dense
                                                                  : nullptr;
}

ElementsAttr getDataConstant(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant || !isTensor(constant.getType()) || getSplatConstant(op))
    return {};
  return dyn_cast<ElementsAttr>(constant.getValue());
}

bool hasConsumedArguments(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, kInputConsumeAttr))
      return true;
  return false;
}

bool hasTiedResults(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (func.getResultAttr(i, kInputTiedAttr))
      return true;
  return false;
}

bool isIntegerDivision(Operation *op) {
  return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}

// Whether the divisor of the integer division `op` is at least 1: a
// constant, the signed maximum of a value and a constant, or for an
// unsigned division the unsigned one (no zero, and for a signed division
// no -1 to overflow: an unsigned maximum may be -1 taken as signed).
static bool hasPositiveDivisor(Operation *op) {
  auto positive = [](Value value) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    return constant && *constant >= 1;
  };
  Value divisor = op->getOperand(1);
  if (positive(divisor))
    return true;
  Operation *max = divisor.getDefiningOp();
  bool isUnsigned = isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op);
  bool bounded = isa_and_nonnull<arith::MaxSIOp>(max) ||
                 (isUnsigned && isa_and_nonnull<arith::MaxUIOp>(max));
  return bounded &&
         (positive(max->getOperand(0)) || positive(max->getOperand(1)));
}

bool isDispatchableLinalgOp(Operation *op) {
  return isa<linalg::GenericOp, linalg::MatmulOp, linalg::BatchMatmulOp,
             linalg::MatvecOp, linalg::VecmatOp, linalg::DotOp,
             linalg::BroadcastOp, linalg::TransposeOp, linalg::ReduceOp,
             linalg::MapOp, linalg::CopyOp, linalg::ElementwiseOp,
             linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp,
             linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcSumOp>(op);
}

LogicalResult checkDispatchableLinalgOp(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
    return op->emitError() << "'" << op->getName()
                           << "' is supported on tensors with one result only";
  for (Type type : op->getOperandTypes())
    if (!(isa<linalg::GenericOp>(op) && isBodyScalar(type)) &&
        failed(checkRuntimeTensor(op, type)))
      return failure();
  for (AffineMap map : op.getIndexingMapsArray())
    if (!isMonotoneIndexingMap(map))
      return op->emitError()
             << "'" << op->getName() << "' has indexing map "
             << AffineMapAttr::get(map)
             << "; only loops and sums of loops times non-negative constants "
                "(plus a non-negative constant) are supported";
  WalkResult body = op->walk([&](Operation *nested) {
    if (isIntegerDivision(nested) && !hasPositiveDivisor(nested)) {
      nested->emitError() << "'" << nested->getName() << "' in the body of '"
                          << op->getName()
                          << "' is not supported: integer division in a "
                             "native kernel would trap on a zero divisor";
      return WalkResult::interrupt();
    }
    if (nested == op.getOperation() ||
        isa<linalg::YieldOp, linalg::IndexOp>(nested) ||
        isa<arith::ArithDialect, math::MathDialect>(nested->getDialect()))
      return WalkResult::advance();
    // A gather: an element of a tensor from outside the op, at indices
    // the body computes (clamped into its bounds: FormDispatches.h).
    if (auto extract = dyn_cast<tensor::ExtractOp>(nested);
        extract &&
        !op->getRegion(0).isAncestor(extract.getTensor().getParentRegion()) &&
        isRuntimeTensor(extract.getTensor().getType()))
      return WalkResult::advance();
    nested->emitError()
        << "'" << nested->getName() << "' in the body of '" << op->getName()
        << "' is not supported: bodies may use arith and "
           "math ops, and tensor.extract of a tensor defined outside it";
    return WalkResult::interrupt();
  });
  if (body.wasInterrupted())
    return failure();
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value value : captured)
    if (!matchPattern(value, m_Constant()) && !isBodyScalar(value.getType()) &&
        !isRuntimeTensor(value.getType()))
      return op->emitError()
             << "'" << op->getName() << "' uses a value of type "
             << value.getType()
             << " defined outside it; only constants, tensors (read by "
                "tensor.extract) and scalars of index or the element types of "
                "tensors may be";
  return success();
}

bool isGenericElementwise(Operation *op) {
  if (isIntegerDivision(op) || op->getNumResults() != 1 ||
      !op->hasTrait<OpTrait::Elementwise>() ||
      !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType)
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    return tensorType && tensorType.getShape() == resultType.getShape();
  });
}

bool isImportedRegionOp(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp>(op);
}

// Checks every op of `block`, reporting each it cannot import (ops nested
// in an unsupported op are not reported again).
bool checkBlock(Block &block, SymbolTable &symbols) {
  bool ok = true;
  for (Operation &op : block)
    if (failed(checkSupported(&op, symbols)))
      ok = false;
  return ok;
}

// A region op: what it carries must be runtime tensors or scalars; its
// bodies are checked op by op.
static LogicalResult checkRegionOp(Operation *op, SymbolTable &symbols) {
  auto carried = [&](Type type) {
    return isTensor(type) ? checkRuntimeTensor(op, type) : success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(carried(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(carried(type)))
      return failure();
  bool ok = true;
  for (Region &region : op->getRegions()) {
    if (!region.empty() && !region.hasOneBlock())
      return op->emitError() << "'" << op->getName()
                             << "' with several blocks in a function that "
                                "uses tensors is not supported";
    for (Block &block : region) {
      for (Type type : block.getArgumentTypes())
        if (failed(carried(type)))
          return failure();
      ok &= checkBlock(block, symbols);
    }
  }
  return success(ok);
}

LogicalResult checkSupported(Operation *op, SymbolTable &symbols) {
  if (isGenericElementwise(op)) {
    for (Type type : op->getOperandTypes())
      if (failed(checkRuntimeTensor(op, type)))
        return failure();
    return checkRuntimeTensor(op, op->getResult(0).getType());
  }
  if (auto dimOp = dyn_cast<tensor::DimOp>(op)) {
    if (!dimOp.getConstantIndex())
      return op->emitError()
             << "'tensor.dim' with a non-constant dimension index is not "
                "supported";
    return success();
  }
  if (isa<tensor::EmptyOp>(op))
    return checkRuntimeTensor(op, op->getResult(0).getType());
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(extract.getTensor().getType());
    if (failed(checkRuntimeTensor(op, extract.getTensor().getType())))
      return failure();
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      std::optional<int64_t> constant = getConstantIntValue(index);
      if (constant && (*constant < 0 || (!type.isDynamicDim(d) &&
                                         *constant >= type.getDimSize(d))))
        return op->emitError() << "index " << *constant << " of dimension " << d
                               << " is out of bounds for " << type;
    }
    return success();
  }
  if (getSplatConstant(op) || getDataConstant(op))
    return checkRuntimeTensor(op, op->getResult(0).getType());
  if (isDispatchableLinalgOp(op))
    return checkDispatchableLinalgOp(cast<linalg::LinalgOp>(op));
  if (isSliceOp(op))
    return checkSlice(op);
  // Row-major reshapes are the same bytes: metadata only.
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
    if (failed(checkRuntimeTensor(op, op->getOperand(0).getType())))
      return failure();
    return checkRuntimeTensor(op, op->getResult(0).getType());
  }
  // Metadata: the source's storage under another type (ImportTensorOps.h).
  if (isa<tensor::BitcastOp, tensor::CastOp>(op))
    return checkMetadataTensorOp(op);
  // Byte ranges of the result, one update each (ImportTensorOps.h).
  if (isContiguousConcat(op)) {
    for (Type type : op->getOperandTypes())
      if (failed(checkRuntimeTensor(op, type)))
        return failure();
    return checkRuntimeTensor(op, op->getResult(0).getType());
  }
  // decomposeTensorOps rewrote all others before the check: one left was
  // refused there, or holds elements the runtime does not.
  if (isa<tensor::SplatOp, tensor::FromElementsOp, tensor::PadOp,
          tensor::ConcatOp>(op)) {
    if (failed(checkRuntimeTensor(op, op->getResult(0).getType())))
      return failure();
    return failure();
  }
  // Decomposed into fills and generics (FormDispatches.cpp).
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    if (!softmax.hasPureTensorSemantics())
      return op->emitError() << "'linalg.softmax' is supported on tensors only";
    if (failed(checkRuntimeTensor(op, softmax.getInput().getType())))
      return failure();
    return checkRuntimeTensor(op, softmax.getOutput().getType());
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureTensorSemantics() || fill.getNumResults() != 1)
      return op->emitError() << "'linalg.fill' is supported on tensors only";
    return checkRuntimeTensor(op, fill.getResult(0).getType());
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee)
      return op->emitError() << "calls '" << call.getCallee()
                             << "', which is not a func.func of this module";
    // A defined callee is imported on its own (checkFunction reports its
    // signature); a scalar one is called as it is.
    if (!callee.isDeclaration()) {
      if (hasTiedResults(callee))
        return op->emitError()
               << "calls '" << call.getCallee()
               << "', which writes a result into its argument "
                  "(iree.abi.tied); only the host may call such a function";
      if (hasConsumedArguments(callee))
        return op->emitError()
               << "calls '" << call.getCallee()
               << "', which takes over its caller's ownership of an argument "
                  "(iree.abi.consume); only the host may call such a function";
      return success();
    }
    for (Type type : call->getOperandTypes())
      if (failed(checkRuntimeTensor(op, type)))
        return failure();
    auto ties = callee->getAttrOfType<DenseI64ArrayAttr>(kTiedOperandsAttr);
    for (auto [i, type] : llvm::enumerate(call.getResultTypes())) {
      if (failed(checkRuntimeTensor(op, type)))
        return failure();
      bool tied = ties && ties[i] >= 0;
      auto tensorType = cast<RankedTensorType>(type);
      if (!tied && !tensorType.hasStaticShape() &&
          !callee->hasAttr(kResultAllocationAttr))
        return op->emitError() << "result " << i << " of '" << call.getCallee()
                               << "' is a new tensor of dynamic shape " << type
                               << "; only tied results may have dynamic shapes";
    }
    return success();
  }
  if (isa<func::ReturnOp, scf::YieldOp, scf::ConditionOp>(op))
    return success();
  if (isImportedRegionOp(op))
    return checkRegionOp(op, symbols);
  if (auto poison = dyn_cast<ub::PoisonOp>(op)) {
    Type type = poison.getType();
    if (isBoundaryScalar(type))
      return success();
    if (failed(checkRuntimeTensor(op, type)))
      return failure();
    if (!cast<RankedTensorType>(type).hasStaticShape())
      return op->emitError()
             << "'ub.poison' of dynamic shape " << type
             << " is not supported: only a static shape says how much to "
                "allocate";
    return success();
  }
  if (isa<cf::BranchOp, cf::CondBranchOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' in a function that uses tensors is not "
                              "supported: only functions without tensors may "
                              "branch (move the scalar control flow into a "
                              "function of its own and call it)";
  // Scalar arithmetic and assertions pass through untouched.
  if ((isa<arith::ArithDialect>(op->getDialect()) && !hasTensorTypes(op)) ||
      isa<cf::AssertOp>(op))
    return success();
  return op->emitError() << "'" << op->getName()
                         << "' is not supported by Ferry";
}

std::string locationSuffix(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (" at " + file.getFilename().getValue() + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  return "";
}

} // namespace ferry::stream::input
