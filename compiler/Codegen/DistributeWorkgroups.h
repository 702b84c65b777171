// Workgroup-level tile and fuse: the hook between dispatch formation (which
// ops share a dispatch function) and the kernel code generated inside one
// workgroup's tile.
//
// distributeOverWorkgroups runs on the tensor body of a dispatch function
// (LowerDispatchToLLVM.cpp `makeBufferBody`), before bufferization. The op
// computing the result (the root of tiling: the last op of a dispatch group)
// is tiled along `EntryLayout::workgroups.loop` by its tile size with
// `scf::tileConsumerAndFuseProducersUsingSCF`, which computes every linalg
// producer in the group (a contraction, an elementwise producer, the fill of
// the destination) tile by tile inside the same loop, so no intermediate is
// made whole per workgroup: neither computed (a dim of a producer's result,
// such as the loop's bound with dynamic rows, is resolved to its
// destination's, so the untiled producer is dead) nor allocated (a
// producer's destination is an empty tensor of one tile, a static one where
// the tile's sizes have constant bounds). The loop then runs tile
// `workgroup_id + k * workgroup_count` in each workgroup (cyclic) and is
// marked `ferry.workgroup_loop`; what a workgroup computes is the linalg ops
// inside it, on slices, for the cache tiling and vectorization that follow.
// With no split (tile size 0) the body is left whole for one workgroup.
#ifndef FERRY_COMPILER_CODEGEN_DISTRIBUTEWORKGROUPS_H_
#define FERRY_COMPILER_CODEGEN_DISTRIBUTEWORKGROUPS_H_

#include "compiler/Codegen/ExecutableCompiler.h"

namespace ferry::codegen {

/// The attribute on the loop over a workgroup's tiles.
inline constexpr llvm::StringLiteral kWorkgroupLoopAttr =
    "ferry.workgroup_loop";

/// Tiles and fuses `body` (tensors; its last two arguments are the
/// workgroup id and count) over workgroups as described above. Errors are
/// emitted on the op that could not be tiled.
mlir::LogicalResult distributeOverWorkgroups(mlir::func::FuncOp body,
                                             const EntryLayout &layout);

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_DISTRIBUTEWORKGROUPS_H_
