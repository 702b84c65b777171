// Cache tiling and vectorization of a workgroup's linalg ops (on binding
// memrefs, after bufferization and distribution over workgroups), sized for
// the target's SIMD width; what is not handled stays for linalg-to-loops
// (and LLVM's loop vectorizer). TileAndVectorize.cpp says what each op
// family becomes.
#ifndef FERRY_COMPILER_CODEGEN_TILEANDVECTORIZE_H_
#define FERRY_COMPILER_CODEGEN_TILEANDVECTORIZE_H_

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>

namespace ferry::codegen {

struct VectorTarget {
  /// Width of the target's SIMD registers (128 SSE/NEON, 256 AVX2, 512
  /// AVX-512); 0 leaves every op to linalg-to-loops.
  unsigned vectorBits = 128;
  /// Whether large outputs that are only written may be stored with
  /// non-temporal stores followed by an SFENCE (x86 only).
  bool nontemporalStores = false;
};

/// The tile of the workgroup loop to give one workgroup of `op`, given the
/// one chosen for its amount of work: for a matmul at least 128 rows (64
/// under 512 rows) and a multiple of the register block's 8 (a workgroup
/// packs each panel of B once for all its rows; a batch matmul of one
/// batch likewise), for a vecmat a multiple of 64 columns (whole vector
/// blocks); other ops keep `tile`.
int64_t adjustWorkgroupTile(mlir::linalg::LinalgOp op, int64_t tile);

/// Tiles and vectorizes the linalg ops (on memrefs) of every function of
/// `module` for `target` and lowers the vector ops to what
/// convert-vector-to-llvm takes. An op that does not fit a pattern is left
/// as it is; failure only when tiling breaks.
mlir::LogicalResult tileAndVectorize(mlir::ModuleOp module,
                                     const VectorTarget &target);

} // namespace ferry::codegen

#endif // FERRY_COMPILER_CODEGEN_TILEANDVECTORIZE_H_
