// The MLIR half of code generation: dispatch functions to an LLVM-dialect
// module exporting the kernel ABI (ExecutableCompiler.h says what a dispatch
// function is; LowerDispatchToLLVM.cpp how it is lowered).
#ifndef FERRY_COMPILER_CODEGEN_LOWERDISPATCHTOLLVM_H_
#define FERRY_COMPILER_CODEGEN_LOWERDISPATCHTOLLVM_H_

#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Codegen/TileAndVectorize.h"
#include "mlir/IR/OwningOpRef.h"
#include "runtime/hal/executable_abi.h"

namespace ferry::codegen {

constexpr uint32_t kExecutableAbiVersion = FERRY_EXECUTABLE_ABI_VERSION;

/// Lowers every public function of `module` (not modified) into a new module
/// in the LLVM dialect and appends each entry's layout to `entries`; each
/// workgroup's linalg ops are tiled and vectorized for `vectorTarget`.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
lowerDispatchesToLLVM(mlir::ModuleOp module,
                      llvm::SmallVectorImpl<EntryLayout> &entries,
                      const VectorTarget &vectorTarget = {});

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_LOWERDISPATCHTOLLVM_H_
