// Function boundaries for convert-input-to-stream (ImportBoundary.h).

#include "compiler/Dialect/Stream/Conversion/ImportBoundary.h"

#include "compiler/Dialect/HAL/IR/HALDialect.h"
#include "compiler/Dialect/Stream/Conversion/ImportSupport.h"
#include "compiler/Dialect/Stream/IR/StreamDialect.h"
#include "compiler/Utils/ABI.h"
#include "compiler/Utils/ElementTypes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;

namespace ferry::stream::input {

// True for a function that still works on tensors. Others were imported
// already (or written at a lower level) and are left alone.
bool isInputFunction(func::FuncOp func) {
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

LogicalResult checkBoundaryTypes(func::FuncOp func) {
  bool ok = true;
  // External functions take tensors only (the coarse-fences ABI); functions
  // of the module also take and return scalars.
  bool scalars = !func.isDeclaration();
  auto check = [&](Type type, StringRef what, unsigned index) {
    if (isRuntimeTensor(type) || (scalars && isBoundaryScalar(type)))
      return;
    func.emitError() << what << " " << index << " of function '"
                     << func.getSymName() << "' has type " << type
                     << "; only ranked tensors of " << hal::kElementTypeList
                     << (scalars ? " and scalars (index, integers of up to 64 "
                                   "bits, f16, bf16, f32, f64)"
                                 : "")
                     << " cross a function boundary";
    ok = false;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    check(type, "argument", i);
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    check(type, "result", i);
  return success(ok);
}

// The operand each result of `func` is written into (`iree.abi.tied`), or -1,
// checked: an integer, in range, same type, one result per operand. Reports
// why not.
FailureOr<SmallVector<int64_t>> readTies(func::FuncOp func) {
  SmallVector<int64_t> ties(func.getNumResults(), -1);
  llvm::SmallDenseSet<int64_t> tiedOperands;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    Attribute tieAttr = func.getResultAttr(i, kInputTiedAttr);
    if (!tieAttr)
      continue;
    auto tie = dyn_cast<IntegerAttr>(tieAttr);
    if (!tie)
      return func.emitError()
             << "result " << i << " of '" << func.getSymName() << "' has "
             << kInputTiedAttr << " = " << tieAttr
             << "; it must be an integer, the index of the operand the result "
                "is tied to";
    int64_t operand = tie.getInt();
    if (operand < 0 || operand >= func.getNumArguments())
      return func.emitError()
             << "result " << i << " of '" << func.getSymName()
             << "' is tied to operand " << operand << ", but it takes "
             << func.getNumArguments() << " operands";
    if (!isTensor(func.getResultTypes()[i]))
      return func.emitError()
             << "result " << i << " of '" << func.getSymName()
             << "' is the scalar " << func.getResultTypes()[i]
             << "; only tensor results may be tied (" << kInputTiedAttr << ")";
    if (func.getArgumentTypes()[operand] != func.getResultTypes()[i])
      return func.emitError()
             << "result " << i << " of '" << func.getSymName() << "' has type "
             << func.getResultTypes()[i] << " but is tied to operand "
             << operand << " of type " << func.getArgumentTypes()[operand];
    if (!tiedOperands.insert(operand).second)
      return func.emitError()
             << "operand " << operand << " of '" << func.getSymName()
             << "' is tied to more than one result";
    ties[i] = operand;
  }
  return ties;
}

// Which arguments of `func` the caller hands over (`iree.abi.consume`),
// checked: a unit attribute on an argument no result is tied to (a tied
// argument stays the caller's, who reads the result in it). Reports why not.
FailureOr<SmallVector<bool>> readConsumed(func::FuncOp func,
                                          ArrayRef<int64_t> ties) {
  SmallVector<bool> consumed(func.getNumArguments(), false);
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Attribute attr = func.getArgAttr(i, kInputConsumeAttr);
    if (!attr)
      continue;
    if (!isa<UnitAttr>(attr))
      return func.emitError()
             << "argument " << i << " of '" << func.getSymName() << "' has "
             << kInputConsumeAttr << " = " << attr
             << "; it must be a unit attribute (no value)";
    if (!isTensor(func.getArgumentTypes()[i]))
      return func.emitError()
             << "argument " << i << " of '" << func.getSymName()
             << "' is the scalar " << func.getArgumentTypes()[i] << "; only "
             << "tensor arguments may be consumed (" << kInputConsumeAttr
             << ")";
    if (llvm::is_contained(ties, int64_t(i)))
      return func.emitError()
             << "argument " << i << " of '" << func.getSymName()
             << "' is both consumed (" << kInputConsumeAttr
             << ") and tied to a result (" << kInputTiedAttr
             << "); a tied argument stays the caller's";
    consumed[i] = true;
  }
  return consumed;
}

// Moves `iree.abi.tied` into the function's `stream.tied_operands`.
void applyTies(func::FuncOp func, ArrayRef<int64_t> ties) {
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    func.removeResultAttr(i,
                          StringAttr::get(func.getContext(), kInputTiedAttr));
  if (llvm::any_of(ties, [](int64_t tie) { return tie >= 0; }))
    func->setAttr(kTiedOperandsAttr,
                  DenseI64ArrayAttr::get(func.getContext(), ties));
}

// An external declaration: its `iree.abi.tied` result attributes become the
// function's tied operands; the ABI model must be one the runtime implements.
LogicalResult importExternal(func::FuncOp func) {
  if (failed(checkBoundaryTypes(func)))
    return failure();
  if (auto model = func->getAttrOfType<StringAttr>(kInputModelAttr);
      model && model.getValue() != kCoarseFencesModel)
    return func.emitError() << "'" << func.getSymName() << "' uses ABI model '"
                            << model.getValue() << "'; only '"
                            << kCoarseFencesModel << "' is supported";
  if (hasConsumedArguments(func))
    return func.emitError()
           << "'" << func.getSymName() << "' is external and has an argument "
           << "with " << kInputConsumeAttr
           << "; only functions of the module may consume arguments";
  FailureOr<SmallVector<int64_t>> ties = readTies(func);
  if (failed(ties))
    return failure();
  // A new result whose shape only the function knows: calls pass views at
  // the function's ABI (like calls between functions of the module), so the
  // dims come back with the result's view.
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if ((*ties)[i] >= 0 || !tensorType || tensorType.hasStaticShape())
      continue;
    if (llvm::any_of(*ties, [](int64_t tie) { return tie >= 0; }))
      return func.emitError()
             << "result " << i << " of '" << func.getSymName()
             << "' is a new tensor of dynamic shape " << type
             << "; a function with one cannot also have tied results "
                "(iree.abi.tied) yet";
    func->setAttr(kResultAllocationAttr, UnitAttr::get(func.getContext()));
  }
  applyTies(func, *ties);
  return success();
}

// An external function with a new result of dynamic shape is called with
// buffer views (see importExternal): its signature says so.
void useViewSignature(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  auto lower = [&](Type type) -> Type {
    return isa<TensorType>(type) ? hal::BufferViewType::get(context) : type;
  };
  func.setType(FunctionType::get(
      context, llvm::map_to_vector(func.getArgumentTypes(), lower),
      llvm::map_to_vector(func.getResultTypes(), lower)));
}

LogicalResult checkFunction(func::FuncOp func, SymbolTable &symbols) {
  // The stream passes work on one block; branches were lifted to scf.
  if (!func.getBody().hasOneBlock()) {
    for (Block &block : func.getBody())
      for (Operation &op : block)
        if (isa<cf::BranchOp, cf::CondBranchOp>(op))
          return checkSupported(&op, symbols);
    return func.emitError() << "function '" << func.getSymName()
                            << "' uses tensors and has several blocks; only "
                               "functions without tensors may branch";
  }
  bool ok = succeeded(checkBoundaryTypes(func));
  FailureOr<SmallVector<int64_t>> ties = readTies(func);
  ok &= succeeded(ties) && succeeded(readConsumed(func, *ties));
  ok &= checkBlock(func.getBody().front(), symbols);
  return success(ok);
}

// The functions some func.call of the module calls.
llvm::DenseSet<StringAttr> calledFunctions(ModuleOp module) {
  llvm::DenseSet<StringAttr> called;
  module.walk([&](func::CallOp call) {
    called.insert(call.getCalleeAttr().getAttr());
  });
  return called;
}

} // namespace ferry::stream::input
