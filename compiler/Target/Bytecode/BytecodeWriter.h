// Serializes a module at the hal level into a Ferry bytecode module (.fvm),
// the file format pinned in runtime/vm/bytecode_format.h.
//
// The writer is a one-op-to-one-instruction translation: every op it accepts
// must already be at the hal level (hal, func and integer arith ops in
// single-block functions). Anything else is an error at the op's location
// naming the op, since it means an earlier lowering was missed.
#ifndef FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_
#define FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace ferry {

// Writes `module` to `os` as a complete .fvm file. On failure emits
// diagnostics through the module's context and writes nothing to `os`, so a
// caller never sees a partial module.
mlir::LogicalResult writeBytecodeModule(mlir::ModuleOp module,
                                        llvm::raw_ostream &os);

} // namespace ferry

#endif // FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_
