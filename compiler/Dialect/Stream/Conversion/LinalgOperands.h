// How dispatch formation (convert-input-to-stream) reads the operands of a
// linalg op it outlines, beyond projected permutations:
//
// - window indexing: convolution and pooling index their input with sums
//   of loops (`d1 * stride + d4 * dilation`). Such an index only grows with
//   the loops, so its largest value is at every loop's last iteration, and
//   the program checks before the dispatch that the operand is that large
//   where the sizes are dynamic (static ones the linalg verifier checked);
//   the kernel then never reads outside its binding.
// - shape-only operands: the window operand of pooling is a `tensor.empty`
//   the body never reads; it only gives the window loops their extents. Of
//   static shape it is not a binding at all: the executable makes its own
//   `tensor.empty` (which code generation drops, nothing reading it) and
//   the program allocates nothing for it.
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LINALGOPERANDS_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LINALGOPERANDS_H_

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace ferry::stream {

/// Whether every result of `map` is a loop, or a sum of loops times
/// non-negative constants plus a non-negative constant (no symbols).
bool isMonotoneIndexingMap(mlir::AffineMap map);

/// Whether `use` is an input of a linalg op whose body never reads it,
/// defined by a `tensor.empty` of static shape: only its shape matters.
bool isShapeOnlyOperand(mlir::OpOperand &use);

/// Whether every use of `empty` is a shape-only operand (so it needs no
/// storage).
bool isShapeOnlyEmpty(mlir::Operation *empty);

/// The largest value index `expr` takes when each loop `d` runs up to
/// `loopExtents[d] - 1`, built from arith ops at the builder's point.
mlir::Value buildLargestIndex(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::AffineExpr expr,
                              llvm::ArrayRef<mlir::Value> loopExtents);

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_LINALGOPERANDS_H_
