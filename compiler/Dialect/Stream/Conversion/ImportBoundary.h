// How convert-input-to-stream reads a function's boundary: which
// functions still work on tensors, the types that may cross a boundary, the
// ABI attributes of results written into an operand (`iree.abi.tied`) and
// of arguments handed over (`iree.abi.consume`), and external declarations.
// Each check reports why it fails on the function.
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTBOUNDARY_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTBOUNDARY_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace ferry::stream::input {

/// True for a function that still works on tensors; others were imported
/// already (or written at a lower level) and are left alone.
bool isInputFunction(mlir::func::FuncOp func);

/// Checks each argument and result type may cross the boundary: tensors of
/// a runtime element type, and scalars for functions of the module.
mlir::LogicalResult checkBoundaryTypes(mlir::func::FuncOp func);

/// The operand each result is written into (`iree.abi.tied`), or -1.
mlir::FailureOr<llvm::SmallVector<int64_t>> readTies(mlir::func::FuncOp func);

/// Which arguments the caller hands over (`iree.abi.consume`), given the
/// function's `ties`.
mlir::FailureOr<llvm::SmallVector<bool>>
readConsumed(mlir::func::FuncOp func, llvm::ArrayRef<int64_t> ties);

/// Moves `iree.abi.tied` into the function's `stream.tied_operands`.
void applyTies(mlir::func::FuncOp func, llvm::ArrayRef<int64_t> ties);

/// Imports an external declaration's boundary (ties, ABI model, a new
/// result of dynamic shape).
mlir::LogicalResult importExternal(mlir::func::FuncOp func);

/// An external function with a new result of dynamic shape takes and
/// returns buffer views.
void useViewSignature(mlir::func::FuncOp func);

/// Checks a tensor function of the module can be imported: one block
/// (branches lifted), its boundary, and every op of its body.
mlir::LogicalResult checkFunction(mlir::func::FuncOp func,
                                  mlir::SymbolTable &symbols);

/// The functions some func.call of the module calls.
llvm::DenseSet<mlir::StringAttr> calledFunctions(mlir::ModuleOp module);

} // namespace ferry::stream::input

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTBOUNDARY_H_
