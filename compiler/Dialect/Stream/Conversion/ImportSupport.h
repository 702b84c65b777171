// What convert-input-to-stream accepts and how it classifies input ops:
// checked for every op before anything changes, then read by the rewrite
// (ConvertInputToStream.cpp).
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSUPPORT_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSUPPORT_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>

#include <string>

namespace ferry::stream::input {

// The input ABI's attributes (as the reference system spells them).
inline constexpr llvm::StringLiteral kInputTiedAttr = "iree.abi.tied";
inline constexpr llvm::StringLiteral kInputConsumeAttr = "iree.abi.consume";
inline constexpr llvm::StringLiteral kInputModelAttr = "iree.abi.model";
inline constexpr llvm::StringLiteral kCoarseFencesModel = "coarse-fences";

bool isTensor(mlir::Type type);

// Whether `op` has an operand or result of tensor type.
bool hasTensorTypes(mlir::Operation *op);

// Reports on `op` unless `type` is a ranked tensor whose elements the
// runtime can hold (isRuntimeTensor).
mlir::LogicalResult checkRuntimeTensor(mlir::Operation *op, mlir::Type type);

// A scalar that crosses a function boundary as it is, in an i64 register
// (runtime/vm/bytecode_format.h: floats as their bit pattern).
bool isBoundaryScalar(mlir::Type type);

// A scalar a linalg body may read from outside it (captured, or a scalar
// `ins` of a generic): index, or a type the runtime's tensors hold. Dispatch
// formation passes it as a 0-d tensor (FormDispatches.h).
bool isBodyScalar(mlir::Type type);

// A ranked tensor type whose elements the runtime can hold.
bool isRuntimeTensor(mlir::Type type);

// A splat tensor constant, or null.
mlir::DenseElementsAttr getSplatConstant(mlir::Operation *op);

// A tensor constant of distinct elements (dense or a resource blob), or
// null: model weights, stored once in the module.
mlir::ElementsAttr getDataConstant(mlir::Operation *op);

// Whether `func` takes over its caller's ownership of an argument.
bool hasConsumedArguments(mlir::func::FuncOp func);

// Whether `func` writes a result into one of its arguments.
bool hasTiedResults(mlir::func::FuncOp func);

// Integer division traps on a zero divisor (SIGFPE on x86) in native code,
// where the VM's division fails the call naming the op: refused in
// dispatches until kernels check their divisors, except by a divisor that
// is at least 1 (a constant, or the maximum of a value and one).
bool isIntegerDivision(mlir::Operation *op);

// The linalg ops dispatch formation makes a native dispatch of (one each).
bool isDispatchableLinalgOp(mlir::Operation *op);

// Reports why a linalg op cannot become a dispatch: tensors only, one
// result, indexing maps of loops or of sums of loops times non-negative
// constants (convolution windows; LinalgOperands.h), a body of arith/math
// ops, scalars captured from outside only as constants.
mlir::LogicalResult checkDispatchableLinalgOp(mlir::linalg::LinalgOp op);

// An elementwise arith or math op on ranked tensors of one shape (integer
// division aside): it becomes a linalg.generic (what
// convert-elementwise-to-linalg makes of it) dispatched like any other.
bool isGenericElementwise(mlir::Operation *op);

// On the linalg.generic an elementwise op on tensors becomes (until it fuses
// or is outlined): that op's name, which the import's run-time checks of
// its operands' dims name, as the user wrote it.
inline constexpr llvm::StringLiteral kElementwiseSourceAttr =
    "ferry.elementwise_source";

// The structured control flow ops the import rebuilds with resources in
// place of the tensors they carry.
bool isImportedRegionOp(mlir::Operation *op);

// Reports why `op` cannot be imported, or succeeds if it can.
mlir::LogicalResult checkSupported(mlir::Operation *op,
                                   mlir::SymbolTable &symbols);

// Checks every op of `block`, reporting each it cannot import (ops nested
// in an unsupported op are not reported again). True when all are.
bool checkBlock(mlir::Block &block, mlir::SymbolTable &symbols);

// " at FILE:LINE:COL" for a file location, else "": how import errors and
// run-time checks name where an op is.
std::string locationSuffix(mlir::Location loc);

} // namespace ferry::stream::input

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_IMPORTSUPPORT_H_
