// A fused producer of a dynamic size, computed tile by tile: exp(x) @ w with
// x's rows dynamic (and its columns, in @exp_matmul_k), one dispatch of
// ceil(rows / 128) workgroups, each computing exp of its own rows into a
// buffer of one tile (compiler/Codegen/DistributeWorkgroups.cpp; the
// buffers themselves are counted by kernel_tile_mallocs.mlir). Rows that are
// no multiple of the tile (1000 = 7 * 128 + 104, 300), one row and none, on
// local-sync and local-task, compared with NumPy (rtol/atol 1e-5: exp
// within MLIR's polynomial approximation, float32 sums); nothing is left
// live and the peak is the liveness walk's (inputs and result only).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); [np.save('%t.' + name + '.npy', (0.5 * r.standard_normal(shape)).astype(np.float32)) for name, shape in (('x1000', (1000, 3)), ('x1', (1, 3)), ('x0', (0, 3)), ('w', (3, 48)), ('x300', (300, 70)), ('w70', (70, 48)), ('x0k', (0, 5)), ('w5', (5, 48)))]"
// RUN: ferry-compile %s -o %t.fvm
//
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x1000.npy --input=@%t.w.npy --output=@%t.a1000.sync.npy --device=__device_0=local-sync --stats=%t.a1000.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x1000.npy --input=@%t.w.npy --output=@%t.a1000.task.npy --device=__device_0=local-task --stats=%t.a1000.task.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x1.npy --input=@%t.w.npy --output=@%t.a1.sync.npy --device=__device_0=local-sync --stats=%t.a1.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x1.npy --input=@%t.w.npy --output=@%t.a1.task.npy --device=__device_0=local-task --stats=%t.a1.task.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x0.npy --input=@%t.w.npy --output=@%t.a0.sync.npy --device=__device_0=local-sync --stats=%t.a0.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x0.npy --input=@%t.w.npy --output=@%t.a0.task.npy --device=__device_0=local-task --stats=%t.a0.task.json
// RUN: %python -c "import numpy as np; w = np.load('%t.w.npy'); [np.testing.assert_allclose(np.load('%t.a' + n + '.' + d + '.npy'), np.exp(np.load('%t.x' + n + '.npy')) @ w, rtol=1e-5, atol=1e-5) for n in ('1000', '1', '0') for d in ('sync', 'task')]"
// Inputs 1000*3*4 + 3*48*4 = 12576, the result 1000*48*4 = 192000.
// RUN: %python %S/check_stats.py %t.a1000.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=204576
// RUN: %python %S/check_stats.py %t.a1000.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=204576
// RUN: %python %S/check_stats.py %t.a1.sync.json live_bytes_at_exit=0 copies=0 peak_bytes=780
// RUN: %python %S/check_stats.py %t.a1.task.json live_bytes_at_exit=0 copies=0 peak_bytes=780
// RUN: %python %S/check_stats.py %t.a0.sync.json live_bytes_at_exit=0 copies=0 peak_bytes=576
// RUN: %python %S/check_stats.py %t.a0.task.json live_bytes_at_exit=0 copies=0 peak_bytes=576
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1000x3,3x48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK1000
// WALK1000: remark: peak live bytes: 204576 (inputs 12576, allocated 192000)
// WALK1000-NEXT: func.func @exp_matmul(
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x3,3x48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK1
// WALK1: remark: peak live bytes: 780 (inputs 588, allocated 192)
// WALK1-NEXT: func.func @exp_matmul(
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=0x3,3x48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK0
// WALK0: remark: peak live bytes: 576 (inputs 576, allocated 0)
// WALK0-NEXT: func.func @exp_matmul(
//
// x's columns dynamic too (the tile on the heap, min(128, rows) x k).
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x1000.npy --input=@%t.w.npy --output=@%t.k1000.sync.npy --device=__device_0=local-sync --stats=%t.k1000.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x1000.npy --input=@%t.w.npy --output=@%t.k1000.task.npy --device=__device_0=local-task --stats=%t.k1000.task.json
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x300.npy --input=@%t.w70.npy --output=@%t.k300.sync.npy --device=__device_0=local-sync --stats=%t.k300.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x300.npy --input=@%t.w70.npy --output=@%t.k300.task.npy --device=__device_0=local-task --stats=%t.k300.task.json
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x1.npy --input=@%t.w.npy --output=@%t.k1.sync.npy --device=__device_0=local-sync
// RUN: ferry-run %t.fvm --function=exp_matmul_k --input=@%t.x0k.npy --input=@%t.w5.npy --output=@%t.k0.task.npy --device=__device_0=local-task --stats=%t.k0.task.json
// RUN: %python -c "import numpy as np; ld = lambda n: np.load('%t.' + n + '.npy'); [np.testing.assert_allclose(ld(r), np.exp(ld(x)) @ ld(w), rtol=1e-5, atol=1e-5) for r, x, w in (('k1000.sync', 'x1000', 'w'), ('k1000.task', 'x1000', 'w'), ('k300.sync', 'x300', 'w70'), ('k300.task', 'x300', 'w70'), ('k1.sync', 'x1', 'w'), ('k0.task', 'x0k', 'w5'))]"
// Inputs 300*70*4 + 70*48*4 = 97440, the result 300*48*4 = 57600.
// RUN: %python %S/check_stats.py %t.k1000.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=204576
// RUN: %python %S/check_stats.py %t.k1000.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=204576
// RUN: %python %S/check_stats.py %t.k300.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=155040
// RUN: %python %S/check_stats.py %t.k300.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=155040
// RUN: %python %S/check_stats.py %t.k0.task.json live_bytes_at_exit=0 copies=0 peak_bytes=960
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=300x70,70x48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK300
// WALK300: remark: peak live bytes: 155040 (inputs 97440, allocated 57600)
// WALK300-NEXT: func.func @exp_matmul_k(
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
