// Serializes a module at the hal level into a Ferry bytecode module (.fvm),
// the file format pinned in runtime/vm/bytecode_format.h.
//
// The writer is a one-op-to-one-instruction translation: every op it accepts
// must already be at the hal level (hal, func and integer arith ops in
// single-block functions). Anything else is an error at the op's location
// naming the op, since it means an earlier lowering was missed.
#ifndef FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_
#define FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_

#include "compiler/Codegen/ExecutableCompiler.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

namespace ferry {

struct BytecodeWriterOptions {
  // How the native executables (nested modules marked `ferry.executable`)
  // are compiled into the executable table's image.
  codegen::TargetOptions target;
};

// Writes `module` to `os` as a complete .fvm file. The module's executables
// are compiled (compiler/Codegen) into one shared object, the one entry of
// the executable table, with an entry point per dispatch function. On
// failure emits diagnostics through the module's context and writes nothing
// to `os`, so a caller never sees a partial module.
mlir::LogicalResult
writeBytecodeModule(mlir::ModuleOp module, llvm::raw_ostream &os,
                    const BytecodeWriterOptions &options = {});

} // namespace ferry

#endif // FERRY_COMPILER_TARGET_BYTECODE_BYTECODEWRITER_H_
