// Questions about how async-phase resources are used, shared by the passes
// that decide where values may be written in place (copy-on-write, copy
// elision, storage reuse).
#ifndef FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_
#define FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace ferry::stream {

// True for a region op whose regions each run at most once, take no block
// arguments and yield the op's results: a `RegionBranchOpInterface` op
// without a loop (`scf.if`, `scf.index_switch`, `scf.execute_region`). The
// memory passes treat all of them alike: at most one region runs (or the
// only one), and what it yields becomes the op's results.
bool isBranchRegionOp(mlir::Operation *op);

// Whether the then region of `ifOp` runs where the i1 `go` is `goesOn`:
// `go` is its condition, the condition's inverse comparison or negation (an
// xori with true), or (truncated) a result of `ifOp` that one region yields
// the other value of as a constant. None where `go` does not decide it. (A
// loop lifted from blocks tests its exit in an scf.if and goes on under
// that test negated, or under a flag its regions yield.)
std::optional<bool> thenRunsWhen(mlir::scf::IfOp ifOp, mlir::Value go,
                                 bool goesOn);

// True for the structured region ops the memory passes handle: `scf.for`,
// `scf.while` and every branch region op (`isBranchRegionOp`).
bool isStructuredRegionOp(mlir::Operation *op);

// One position a structured region op (`scf.for`, `scf.while`, `scf.if`,
// `scf.index_switch`, `scf.execute_region`) carries a value in: the block
// argument and/or result that hold it (`values`) and every operand that
// passes a value into it (`incoming`: a loop's init, an `scf.yield` or an
// `scf.condition` operand). A value passed in is owned by the position.
struct CarriedPosition {
  llvm::SmallVector<mlir::Value, 2> values;
  llvm::SmallVector<mlir::OpOperand *, 2> incoming;
};

// The position `value` is a block argument or result of, if any.
std::optional<CarriedPosition> getCarriedPosition(mlir::Value value);

// The value (block argument or result) of the position `use` passes its
// value into, or null when `use` is not such a pass.
mlir::Value getPassedInto(mlir::OpOperand &use);

// The ops that use `resource` or a value holding the same storage after a
// use hands it on (every value of a carried position it passes into, the
// result of a host await, a result written into it in place: a tied call
// result), each once, in no particular order. The ops that
// only hand it on (a region op taking it as an initial value, `scf.yield`,
// `scf.condition`, `stream.timepoint.await`) are followed, not returned.
llvm::SmallVector<mlir::Operation *> getStorageUsers(mlir::Value resource);

// True when `a` starts before `b` in the program text of their function (an
// op enclosing another starts first), whatever blocks and regions they are
// in; `isBeforeInBlock` for two ops of one block.
bool startsBefore(mlir::Operation *a, mlir::Operation *b);

// True when `a` and `b` never both run: they sit in different branches of
// an `scf.if` or `scf.index_switch`.
bool areExclusive(mlir::Operation *a, mlir::Operation *b);

// True when nothing reads `use.get()` after `use`'s owner: every other use
// sits in the same block before it (or in an op before it), or in another
// branch of an `scf.if` / `scf.index_switch` the owner is in. Other uses in
// other blocks or regions count as later; a use inside a loop around the
// owner (a loop op, or a cycle of branches the value is not defined in) is
// therefore "later" too. A pass into a carried position (yield, condition,
// init) is a use like any other, and where the value is used again after
// it (shared, not moved, as copy-on-write leaves a value nothing writes),
// the position's readers (of its block arguments and results, and what they
// are passed on to) read the value too: a loop that runs no iteration
// returns its init itself.
// An export holds the value until the function returns, wherever it sits,
// unless its view is only lent to calls (then the last call is the use).
bool isLastUse(mlir::OpOperand &use);

// True when every use of `resource` only reads it: nothing writes it in
// place, and it does not leave the function where something else might
// (returned, passed along a branch or to a function of the module, or
// exported other than as a view lent to calls). A pass into a carried
// position of a region op only reads when every value of the position is
// only read in turn.
bool isOnlyRead(mlir::Value resource);

// Gives `resource` type `type`, and so every resource tied to it: what it was
// written into in place and every in-place write into it. They are one
// storage and must agree on lifetime.
void retypeStorageChain(mlir::Value resource, mlir::Type type);

// Answers whether the program may write a resource in place: it is storage
// the program itself created (an alloca, splat, clone, transfer or a new
// result of a dispatch or call), possibly through ops that wrote into it.
// Host imports and constants are never writable, except an argument the
// host lent for a result to be written into (`iree.abi.tied` on the
// function); a buffer returned by a function of the module (imported with
// `consume`) is. A block argument is
// writable when every predecessor passes it a writable value as its last
// use: every call of a private function, every branch to a block. So is a
// carried position of a region op (its block arguments and results) when
// every value passed into it is writable and passed as its last use, once
// (loop-carried values answer optimistically: a loop writing its iter_arg
// in place and yielding it is writable when its init is).
class WritableStorage {
public:
  explicit WritableStorage(mlir::ModuleOp module) : module(module) {}

  bool isWritable(mlir::Value resource);

  // Forget cached answers after the IR changed.
  void invalidate() {
    cache.clear();
    answered.clear();
  }

  // Forget the answers for `values` only, after a rewrite that changed how
  // these values' storage is made and nothing else: no other value's
  // storage, and no op at which a value is last used (block arguments and
  // carried positions rest on those). Call before erasing any of them. (A
  // value erased from `cache` may stay in `answered`; forgetting it again
  // there is harmless.)
  void forget(llvm::ArrayRef<mlir::Value> values) {
    for (mlir::Value value : values)
      cache.erase(value);
  }

private:
  bool computeWritable(mlir::Value resource);
  bool isWritableArgument(mlir::BlockArgument arg);
  bool isWritableBranchArgument(mlir::BlockArgument arg);

  bool isWritablePosition(const CarriedPosition &position);
  void remember(mlir::Value value, bool writable);

  mlir::ModuleOp module;
  // True/false once known; absent while being computed (recursion guard:
  // a cycle of calls answers "not writable"; one through a carried position
  // "writable" until the position is decided, see isWritablePosition).
  llvm::DenseMap<mlir::Value, bool> cache;
  // The values of `cache` in the order they were answered, so that answers
  // resting on an optimistic assumption that failed can be forgotten.
  llvm::SmallVector<mlir::Value> answered;
};

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_
