// Questions about how async-phase resources are used, shared by the passes
// that decide where values may be written in place (copy-on-write, copy
// elision, storage reuse).
#ifndef FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_
#define FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace ferry::stream {

// True when nothing reads `use.get()` after `use`'s owner: every other use
// sits in the same block before it (or in an op before it). Uses in other
// blocks or regions count as later, unless their ancestor in the owner's
// block comes first; a use inside a loop around the owner (a loop op, or a
// cycle of branches the value is not defined in) is therefore "later" too.
// An export holds the value until the function returns, wherever it sits,
// unless its view is only lent to calls (then the last call is the use).
bool isLastUse(mlir::OpOperand &use);

// True when every use of `resource` only reads it: nothing writes it in
// place, and it does not leave the function where something else might
// (returned, yielded, passed along a branch or to a function of the module,
// or exported other than as a view lent to calls).
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
// use: every call of a private function, every branch to a block. Arguments
// of other regions (`scf`) are not.
class WritableStorage {
public:
  explicit WritableStorage(mlir::ModuleOp module) : module(module) {}

  bool isWritable(mlir::Value resource);

  // Forget cached answers after the IR changed.
  void invalidate() { cache.clear(); }

private:
  bool computeWritable(mlir::Value resource);
  bool isWritableArgument(mlir::BlockArgument arg);
  bool isWritableBranchArgument(mlir::BlockArgument arg);

  mlir::ModuleOp module;
  // True/false once known; absent while being computed (recursion guard:
  // a cycle of calls answers "not writable").
  llvm::DenseMap<mlir::Value, bool> cache;
};

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_
