// Dispatch formation: which linalg ops of an input function share one
// dispatch (convert-input-to-stream outlines each group into one executable
// function; ConvertInputToStream.cpp `importGroup`).
//
// Before grouping, the tensor ops of each block are rewritten for fusion:
// - elementwise arith/math ops on tensors become linalg.generic (add, sub
//   and mul too: they take the compiled path like every other op);
// - broadcast, transpose, map, copy, elementwise and reduce are generalized,
//   and a fill of a constant whose result only generics read becomes a
//   generic yielding the constant;
// - a scalar a generic's body reads that is no constant becomes a 0-d
//   tensor input filled with it (an index as i64), and the indices of a
//   gather (tensor.extract of a tensor from outside) are clamped into the
//   tensor's bounds;
// - an all-parallel generic is merged into the generic that reads it (linalg
//   elementwise fusion) when that is its only user, so a chain of
//   elementwise ops is one generic and elementwise producers of a reduction
//   are in its body.
// Then every contraction, convolution, pooling or reduction (a linalg op with
// a reduction loop) is the root of a group with:
// - the fill of a constant that initializes its destination, if only the
//   root uses it;
// - all-parallel generics producing its inputs that only it uses, whose
//   destination is a tensor.empty only they use (an intermediate that lives
//   inside the dispatch, so its dynamic sizes must be dims of their inputs);
// - the chain of all-parallel generics consuming its result, each the only
//   user of the one before and reading it element for element at its own
//   shape and type: each is rewritten to write in place over the value it
//   reads (its tensor.empty destination goes), so the group's result is
//   tied to the root's destination like a lone op's.
// Every member has the root's device affinity and is in the root's block.
// Anything used outside the group is not fused: its value stays a result of
// a dispatch of its own, so copy-on-write, scheduling and reference counting
// see every value they saw before except the intermediates.
#ifndef FERRY_COMPILER_DIALECT_STREAM_CONVERSION_FORMDISPATCHES_H_
#define FERRY_COMPILER_DIALECT_STREAM_CONVERSION_FORMDISPATCHES_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <memory>

namespace ferry::stream {

struct DispatchGroup {
  /// Members in block order; the last computes the group's result.
  llvm::SmallVector<mlir::Operation *> ops;
  /// tensor.empty ops only members use as destinations: made inside the
  /// dispatch (see buildInternalEmpty), no storage of the program.
  llvm::SmallVector<mlir::Operation *> internalEmpties;

  bool contains(mlir::Operation *op) const {
    return llvm::is_contained(ops, op);
  }
};

class DispatchGroups {
public:
  /// Rewrites the tensor ops of every block of `func` for fusion (above) and
  /// forms the groups of more than one op.
  static DispatchGroups form(mlir::func::FuncOp func);

  /// The group `op` is a member of, or null (it is dispatched alone).
  const DispatchGroup *groupOf(mlir::Operation *op) const;
  /// Whether `op` is a tensor.empty made inside a group's dispatch.
  bool isInternalEmpty(mlir::Operation *op) const;

private:
  llvm::SmallVector<std::unique_ptr<DispatchGroup>> groups;
  llvm::DenseMap<mlir::Operation *, DispatchGroup *> members;
  llvm::DenseMap<mlir::Operation *, DispatchGroup *> empties;
};

/// Builds, at the builder's point, the tensor.empty `init` (a destination
/// of `op`) stands for, its dynamic sizes the dims of `op`'s inputs on the
/// same loops; `lookup` maps an input of `op` to its value at that point.
/// Null if some dynamic size is no input's dim.
mlir::Value
buildInternalEmpty(mlir::OpBuilder &builder, mlir::linalg::LinalgOp op,
                   mlir::OpOperand &init,
                   llvm::function_ref<mlir::Value(mlir::Value)> lookup);

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_CONVERSION_FORMDISPATCHES_H_
