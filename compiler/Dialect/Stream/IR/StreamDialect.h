// The stream dialect: its interfaces, types and ops. See StreamBase.td,
// StreamInterfaces.td and StreamOps.td. Nothing here depends on the HAL
// dialect: devices, topologies and host buffers are reached through the
// interfaces of StreamInterfaces.h, which HAL implements.
#ifndef FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_
#define FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_

#include "compiler/Dialect/Stream/IR/StreamInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/Dialect/Stream/IR/StreamEnums.h.inc"

#include "compiler/Dialect/Stream/IR/StreamDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/Dialect/Stream/IR/StreamTypes.h.inc"

namespace ferry::stream {

// On a func.func: for each result, the index of the argument it is written
// into (tied to), or -1. Calls to the function carry the same ties.
inline constexpr llvm::StringLiteral kTiedOperandsAttr = "stream.tied_operands";

} // namespace ferry::stream

#define GET_OP_CLASSES
#include "compiler/Dialect/Stream/IR/StreamOps.h.inc"

namespace ferry::stream {

// A timepoint reached once all non-null `timepoints` are: null when there are
// none, the timepoint itself when there is one, else a stream.timepoint.join.
mlir::Value joinTimepoints(mlir::OpBuilder &builder, mlir::Location loc,
                           llvm::ArrayRef<mlir::Value> timepoints);

// Whether `op` holds a stream dialect op (at any depth).
bool containsStreamOps(mlir::Operation *op);

// Whether a pass over stream ops has work in `function` (a func.func): false
// for declarations and for functions without stream ops (scalar code, which
// may branch freely). The passes handle straight-line code only, so a
// function with stream ops and several blocks is an error naming `work`
// ("allocation scheduling").
mlir::FailureOr<bool> hasStraightLineStreamCode(mlir::Operation *function,
                                                llvm::StringRef work);

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_IR_STREAMDIALECT_H_
