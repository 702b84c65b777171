// Imports a tensor program (func + arith + tensor.dim on ranked tensors) into
// the stream dialect's async phase. See Passes.td for the contract.
//
// The rewrite walks each function's single block in order, keeping for every
// tensor value the resource that now holds it, the resource's byte size and
// the tensor's dynamic dimensions. Unsupported ops are all reported before
// anything is changed.

#include "compiler/Dialect/Stream/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace ferry::stream {
#define GEN_PASS_DEF_CONVERTINPUTTOSTREAMPASS
#include "compiler/Dialect/Stream/Conversion/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {
namespace {

// Where a tensor value lives after import.
struct TensorStorage {
  Value resource;
  Value size;                     // bytes, index
  SmallVector<Value> dynamicDims; // one per dynamic dimension
};

// The built-in kernel that implements an elementwise arith op on tensors.
std::optional<StringRef> getElementwiseKernel(Operation *op) {
  if (isa<arith::AddIOp, arith::AddFOp>(op))
    return StringRef("add");
  if (isa<arith::SubIOp, arith::SubFOp>(op))
    return StringRef("sub");
  if (isa<arith::MulIOp, arith::MulFOp>(op))
    return StringRef("mul");
  return std::nullopt;
}

bool hasTensorTypes(Operation *op) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

// Reports why `op` cannot be imported, or succeeds if it can.
LogicalResult checkSupported(Operation *op) {
  if (getElementwiseKernel(op) && hasTensorTypes(op)) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return op->emitError() << "'" << op->getName()
                             << "' on unranked tensors is not supported";
    if (!hal::getRuntimeElementType(type.getElementType()))
      return op->emitError()
             << "'" << op->getName() << "' on element type "
             << type.getElementType() << " is not supported by the runtime";
    return success();
  }
  if (auto dimOp = dyn_cast<tensor::DimOp>(op)) {
    if (!dimOp.getConstantIndex())
      return op->emitError()
             << "'tensor.dim' with a non-constant dimension index is not "
                "supported";
    return success();
  }
  if (isa<func::ReturnOp>(op))
    return success();
  // Scalar arithmetic passes through untouched.
  if (isa<arith::ArithDialect>(op->getDialect()) && !hasTensorTypes(op))
    return success();
  return op->emitError() << "'" << op->getName()
                         << "' is not supported by Ferry";
}

// True for a function that still works on tensors. Others were imported
// already (or written at a lower level) and are left alone.
bool isInputFunction(func::FuncOp func) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  if (llvm::any_of(func.getArgumentTypes(), isTensor) ||
      llvm::any_of(func.getResultTypes(), isTensor))
    return true;
  return func
      .walk([](Operation *op) {
        return hasTensorTypes(op) ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult checkFunction(func::FuncOp func) {
  if (func.isDeclaration())
    return func.emitError() << "external function '" << func.getSymName()
                            << "' is not supported yet";
  if (!func.isPublic())
    return func.emitError() << "private function '" << func.getSymName()
                            << "' is not supported yet: calls between "
                               "functions come with a later import";
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "function '" << func.getSymName()
                            << "' has several blocks; only straight-line "
                               "functions are supported";
  bool ok = true;
  auto checkBoundaryType = [&](Type type, StringRef what, unsigned index) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (tensorType && hal::getRuntimeElementType(tensorType.getElementType()))
      return;
    func.emitError() << what << " " << index << " of public function '"
                     << func.getSymName() << "' has type " << type
                     << "; only ranked tensors of i8, i16, i32, i64, f32 or "
                        "f64 cross the program boundary";
    ok = false;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    checkBoundaryType(type, "argument", i);
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    checkBoundaryType(type, "result", i);
  // Ops nested in an unsupported op are not reported again.
  for (Operation &op : func.getBody().front())
    if (failed(checkSupported(&op)))
      ok = false;
  return success(ok);
}

class FunctionImporter {
public:
  explicit FunctionImporter(func::FuncOp func)
      : func(func), builder(func.getContext()) {}

  void run() {
    Block &block = func.getBody().front();
    importArguments(block);
    for (Operation &op : llvm::make_early_inc_range(block)) {
      builder.setInsertionPoint(&op);
      if (auto kernel = getElementwiseKernel(&op);
          kernel && isa<TensorType>(op.getResult(0).getType()))
        importElementwise(&op, *kernel);
      else if (auto dimOp = dyn_cast<tensor::DimOp>(&op))
        importDim(dimOp);
      else if (auto returnOp = dyn_cast<func::ReturnOp>(&op))
        importReturn(returnOp);
    }
    // Erase replaced tensor ops last-first so their uses go before them.
    for (Operation *op : llvm::reverse(deadOps))
      op->erase();
    block.eraseArguments(0, originalArgCount);
    SmallVector<Type> viewTypes(func.getNumResults(),
                                hal::BufferViewType::get(func.getContext()));
    func.setType(FunctionType::get(func.getContext(), block.getArgumentTypes(),
                                   viewTypes));
  }

private:
  Value indexConstant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }

  // Every argument becomes a buffer view, checked and imported.
  void importArguments(Block &block) {
    originalArgCount = block.getNumArguments();
    auto viewType = hal::BufferViewType::get(func.getContext());
    builder.setInsertionPointToStart(&block);
    for (unsigned i = 0; i < originalArgCount; ++i) {
      BlockArgument arg = block.getArgument(i);
      Location loc = arg.getLoc();
      Value view = block.addArgument(viewType, loc);
      auto type = cast<RankedTensorType>(arg.getType());
      TensorStorage storage;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          storage.dynamicDims.push_back(
              hal::BufferViewDimOp::create(builder, loc, builder.getIndexType(),
                                           view, builder.getIndexAttr(d)));
      storage.size =
          TensorSizeOfOp::create(builder, loc, builder.getIndexType(),
                                 TypeAttr::get(type), storage.dynamicDims);
      auto resourceType =
          ResourceType::get(func.getContext(), Lifetime::External);
      storage.resource = TensorImportOp::create(
          builder, loc, resourceType, view,
          builder.getStringAttr("input " + std::to_string(i)), type,
          storage.dynamicDims, storage.size);
      storages[arg] = storage;
    }
  }

  // Number of elements of `type` as an index value.
  Value elementCount(Location loc, RankedTensorType type,
                     ValueRange dynamicDims) {
    int64_t staticCount = 1;
    Value dynamicCount;
    unsigned next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d)) {
        staticCount *= type.getDimSize(d);
        continue;
      }
      Value dim = dynamicDims[next++];
      dynamicCount =
          dynamicCount ? arith::MulIOp::create(builder, loc, dynamicCount, dim)
                       : dim;
    }
    Value count = indexConstant(loc, staticCount);
    return dynamicCount
               ? arith::MulIOp::create(builder, loc, dynamicCount, count)
               : count;
  }

  void importElementwise(Operation *op, StringRef kernel) {
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    const TensorStorage &lhs = storages[op->getOperand(0)];
    const TensorStorage &rhs = storages[op->getOperand(1)];
    TensorStorage result;
    result.dynamicDims = lhs.dynamicDims;
    result.size = lhs.size;
    Value count = elementCount(loc, type, lhs.dynamicDims);
    auto resourceType = ResourceType::get(func.getContext(), Lifetime::Unknown);
    result.resource = AsyncDispatchOp::create(
        builder, loc, resourceType, builder.getStringAttr(kernel),
        TypeAttr::get(type.getElementType()), count,
        ValueRange{lhs.resource, rhs.resource}, ValueRange{lhs.size, rhs.size},
        result.size);
    storages[op->getResult(0)] = result;
    deadOps.push_back(op);
  }

  void importDim(tensor::DimOp op) {
    auto type = cast<RankedTensorType>(op.getSource().getType());
    int64_t index = *op.getConstantIndex();
    Value dim;
    if (index < 0 || index >= type.getRank()) {
      op.emitWarning() << "dimension " << index << " is out of range for "
                       << type << "; the result is undefined";
      dim = indexConstant(op.getLoc(), 0);
    } else if (!type.isDynamicDim(index)) {
      dim = indexConstant(op.getLoc(), type.getDimSize(index));
    } else {
      dim =
          storages[op.getSource()].dynamicDims[type.getDynamicDimIndex(index)];
    }
    op.getResult().replaceAllUsesWith(dim);
    deadOps.push_back(op);
  }

  // Results leave as external resources wrapped in fresh buffer views.
  void importReturn(func::ReturnOp op) {
    auto external = ResourceType::get(func.getContext(), Lifetime::External);
    SmallVector<Value> views;
    for (Value operand : op.getOperands()) {
      TensorStorage &storage = storages[operand];
      storage.resource.setType(external);
      views.push_back(TensorExportOp::create(
          builder, op.getLoc(), hal::BufferViewType::get(func.getContext()),
          storage.resource, TypeAttr::get(operand.getType()),
          storage.dynamicDims, storage.size));
    }
    op->setOperands(views);
  }

  func::FuncOp func;
  OpBuilder builder;
  unsigned originalArgCount = 0;
  llvm::DenseMap<Value, TensorStorage> storages;
  SmallVector<Operation *> deadOps;
};

struct ConvertInputToStreamPass
    : impl::ConvertInputToStreamPassBase<ConvertInputToStreamPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    for (Operation &op : module.getBody()->getOperations()) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        if (func.isDeclaration() || isInputFunction(func))
          ok &= succeeded(checkFunction(func));
        continue;
      }
      if (isa<hal::HALDialect>(op.getDialect()))
        continue;
      op.emitError() << "'" << op.getName()
                     << "' is not supported at module level";
      ok = false;
    }
    if (!ok)
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>())
      if (isInputFunction(func))
        FunctionImporter(func).run();
  }
};

} // namespace
} // namespace ferry::stream
