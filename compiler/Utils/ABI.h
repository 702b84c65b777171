// Attributes of Ferry's function ABI (`ferry.abi.*`), which several layers
// read: the stream passes, the HAL lowering and the bytecode writer.
#ifndef FERRY_COMPILER_UTILS_ABI_H_
#define FERRY_COMPILER_UTILS_ABI_H_

#include "llvm/ADT/StringRef.h"

namespace ferry {

// On an external func.func: the callee may write a tied output over storage
// it also receives as an input (it reads each input element before it writes
// the output element at the same position, as elementwise functions do), so
// a caller may pass a dying input's storage as the output.
// apply-plugin-declarations sets it from a plugin's declaration
// (ferry-compile --module); the runtime checks that the function it binds
// declares it too.
inline constexpr llvm::StringLiteral kTiedMayAliasAttr =
    "ferry.abi.tied_may_alias";

// On an external func.func lowered to HAL: the function has new results
// (tied to no operand), which the runtime allocates for it. Before the two
// fences, every call passes one allocation request per result: the device
// (!hal.device), memory types and buffer usage (i32, usage 0 for a tied
// result) resolved for it. The bytecode writer turns it into
// kImportResultAllocation (runtime/vm/bytecode_format.h).
inline constexpr llvm::StringLiteral kResultAllocationAttr =
    "ferry.abi.result_allocation";

// On a nested builtin.module: a native executable, whose public functions
// are dispatch functions (compiler/Codegen/ExecutableCompiler.h) that
// `stream.async.dispatch.entry` and its lowerings name as
// `@executable::@function`. convert-input-to-stream outlines one per
// dispatched linalg op; the bytecode writer compiles each into the image of
// the module's executable table. The stream passes, which visit the
// top-level functions only, never see inside. Each compiled entry returns
// an int32 status (runtime/hal/executable_abi.h): 0, or
// FERRY_ENTRY_STATUS_OUT_OF_MEMORY when a workgroup's heap tile could not
// be allocated (compiler/Codegen/GuardHeapTiles.h).
inline constexpr llvm::StringLiteral kExecutableAttr = "ferry.executable";

} // namespace ferry

#endif // FERRY_COMPILER_UTILS_ABI_H_
