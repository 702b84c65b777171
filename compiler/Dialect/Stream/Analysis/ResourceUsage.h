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
// block comes first; a use inside a loop around the owner is therefore
// "later" too.
bool isLastUse(mlir::OpOperand &use);

// Gives `resource` type `type`, and so every resource tied to it: what it was
// written into in place and every in-place write into it. They are one
// storage and must agree on lifetime.
void retypeStorageChain(mlir::Value resource, mlir::Type type);

// Answers whether the program may write a resource in place: it is storage
// the program itself created (an alloca, splat, clone, transfer or a new
// result of a dispatch or call), possibly through ops that wrote into it.
// Host imports and constants are never writable; a buffer returned by a
// function of the module (imported with `consume`) is. A function argument is
// writable when the function is private and every call passes a writable
// value as its last use there; other block arguments are not.
class WritableStorage {
public:
  explicit WritableStorage(mlir::ModuleOp module) : module(module) {}

  bool isWritable(mlir::Value resource);

  // Forget cached answers after the IR changed.
  void invalidate() { cache.clear(); }

private:
  bool computeWritable(mlir::Value resource);
  bool isWritableArgument(mlir::BlockArgument arg);

  mlir::ModuleOp module;
  // True/false once known; absent while being computed (recursion guard:
  // a cycle of calls answers "not writable").
  llvm::DenseMap<mlir::Value, bool> cache;
};

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_RESOURCEUSAGE_H_
