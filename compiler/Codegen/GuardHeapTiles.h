// Heap tiles inside a kernel: the buffers a workgroup allocates for itself
// with `malloc` (an intermediate's tile of a dynamic size, or of a static one
// over the stack limit; LowerDispatchToLLVM.cpp `StackTilesPass`). Every
// input can be wrong, and a tile's size comes from push constants, so each
// allocation is checked:
//
// - boundHeapTileSizes (on memrefs, before the LLVM conversion): a tile
//   whose byte size overflows 64 bits or exceeds kMaxHeapTileBytes is
//   allocated with sizes of kMaxHeapTileBytes bytes instead, which no
//   `malloc` can return (more than a 57-bit address space holds), so the
//   size the conversion computes never wraps to a small buffer.
// - checkHeapTiles (on the LLVM-dialect body of an entry): the body returns
//   an i32 status; after each `malloc` a null result branches (marked
//   unlikely) to a block that frees the tiles the workgroup holds at that
//   point and returns FERRY_ENTRY_STATUS_OUT_OF_MEMORY
//   (runtime/hal/executable_abi.h). What is held is a forward dataflow over
//   the body's blocks: a tile is freed there when on every path to the
//   `malloc` it was allocated and not freed since.
#ifndef FERRY_COMPILER_CODEGEN_GUARDHEAPTILES_H_
#define FERRY_COMPILER_CODEGEN_GUARDHEAPTILES_H_

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>
#include <memory>

namespace ferry::codegen {

/// The largest buffer a kernel keeps on its stack (LowerDispatchToLLVM.cpp
/// `StackTilesPass`; larger ones are heap tiles): workgroups run on the
/// runtime's worker threads, whose stacks are the platform's default (8 MiB
/// on Linux).
inline constexpr int64_t kMaxStackTileBytes = 64 * 1024;

/// The largest heap tile a kernel asks for: 2^62 bytes.
inline constexpr int64_t kMaxHeapTileBytes = int64_t(1) << 62;

/// Bounds the size of each dynamically sized `memref.alloc` (above).
std::unique_ptr<mlir::Pass> createBoundHeapTileSizesPass();

/// Makes `body` (an entry's lowered body, returning nothing) return an i32
/// status and checks each of its `malloc` calls (above). Fails, with an
/// error on the call, where the tiles held at a `malloc` cannot be told
/// statically (a tile freed on some paths to it and not on others) or a
/// tile is not freed on some path to a return (a leak on the normal path).
mlir::LogicalResult checkHeapTiles(mlir::LLVM::LLVMFuncOp body);

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_GUARDHEAPTILES_H_
