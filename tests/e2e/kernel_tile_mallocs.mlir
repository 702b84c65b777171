// The buffers a workgroup allocates for the tiles of a fused producer
// (exp(x) in exp(x) @ w): one tile each, not the whole intermediate
// (compiler/Codegen/DistributeWorkgroups.cpp), counted by the preloaded
// tests/tools/fail_kernel_malloc.c (kernel mallocs, bytes in all, the
// largest; a malloc asks for 64 bytes over the tile, for its alignment).
// One workgroup per 128 rows, on local-sync. A tile of a static size up to
// 64 KiB is on the workgroup's stack: no malloc. The results are checked
// against NumPy by linalg_fusion_dynamic_tiles.mlir (the static one here).
// Sanitizer runtimes replace malloc themselves: no preloading there.
// UNSUPPORTED: sanitizer
// RUN: %python -c "import numpy as np; r = np.random.default_rng(6); [np.save('%t.' + name + '.npy', (0.5 * r.standard_normal(shape)).astype(np.float32)) for name, shape in (('x1000', (1000, 3)), ('x1', (1, 3)), ('w', (3, 48)), ('x300', (300, 70)), ('w70', (70, 48)), ('xs', (1000, 64)), ('ws', (64, 48)))]"
// RUN: ferry-compile %s -o %t.fvm
//
// x of 1000 x 3, rows dynamic: 8 tiles of 128 x 3 floats (1536 bytes) on
// the stack (each workgroup made all of exp(x), 12000 bytes, on the heap).
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul --input=@%t.x1000.npy --input=@%t.w.npy --device=__device_0=local-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS
// ROWS: fail_kernel_malloc: 0 kernel mallocs, 0 failed, 0 not freed, 0 bytes, largest 0
//
// x's columns dynamic too: a heap tile of min(128, rows) x k floats per
// workgroup: 128 x 3 (1536 + 64 bytes) for 1000 x 3, 128 x 70 (35840 + 64)
// for 300 x 70, 1 x 3 (12 + 64) for one row.
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x1000.npy --input=@%t.w.npy --device=__device_0=local-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=K1000
// K1000: fail_kernel_malloc: 8 kernel mallocs, 0 failed, 0 not freed, 12800 bytes, largest 1600
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x300.npy --input=@%t.w70.npy --device=__device_0=local-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=K300
// K300: fail_kernel_malloc: 3 kernel mallocs, 0 failed, 0 not freed, 107712 bytes, largest 35904
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x1.npy --input=@%t.w.npy --device=__device_0=local-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=K1
// K1: fail_kernel_malloc: 1 kernel mallocs, 0 failed, 0 not freed, 76 bytes, largest 76
//
// Static 1000 x 64: a tile of 128 x 64 floats (32 KiB) on the stack; all of
// exp(x) (256000 bytes, over the stack's limit) was a malloc per workgroup.
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul_static --input=@%t.xs.npy --input=@%t.ws.npy --output=@%t.s.npy --device=__device_0=local-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=STATIC
// STATIC: fail_kernel_malloc: 0 kernel mallocs, 0 failed, 0 not freed, 0 bytes, largest 0
// RUN: %python -c "import numpy as np; x, w = (np.load('%t.' + n + '.npy') for n in ('xs', 'ws')); np.testing.assert_allclose(np.load('%t.s.npy'), np.exp(x) @ w, rtol=1e-5, atol=1e-5)"
func.func @exp_matmul(%x: tensor<?x3xf32>, %w: tensor<3x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %ex = math.exp %x : tensor<?x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x3xf32>, tensor<3x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %m : tensor<?x48xf32>
}
func.func @exp_matmul_k(%x: tensor<?x?xf32>, %w: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %ex = math.exp %x : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x?xf32>, tensor<?x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %m : tensor<?x48xf32>
}
func.func @exp_matmul_static(%x: tensor<1000x64xf32>, %w: tensor<64x48xf32>) -> tensor<1000x48xf32> {
  %ex = math.exp %x : tensor<1000x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<1000x64xf32>, tensor<64x48xf32>) outs(%z : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  return %m : tensor<1000x48xf32>
}
