// Branches in a function with tensors: the stream passes work on one block,
// so convert-input-to-stream first lifts `cf.br` / `cf.cond_br` to scf
// (upstream `transformCFGToSCF`, as `--lift-cf-to-scf` does), merges the
// positions of each lifted loop's condition that never matter on the same
// path (so the exit, not the body, reads the value the iteration received,
// and the body updates it in place), puts a loop whose only exit is its
// header's test back in the usual scf.while form (the body in the after
// region), then gives each tensor `ub.poison` the
// lifting leaves on dead paths a copy of its own right before its user (a
// poison shared by a loop would make the carried position's owner
// unknown).

#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LIFTCONTROLFLOW_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LIFTCONTROLFLOW_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ferry::stream::input {

// Lifts `func`'s blocks to structured control flow (nothing to do for a
// declaration or one block); a branch it cannot lift is reported by name.
mlir::LogicalResult liftControlFlow(mlir::func::FuncOp func);

} // namespace ferry::stream::input

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LIFTCONTROLFLOW_H_
