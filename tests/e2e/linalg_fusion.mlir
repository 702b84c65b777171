// Dispatch formation end to end: fused dispatches (a contraction with its
// elementwise producer and consumers, a reduction with both) split over
// several workgroups, each computing its tile of every fused op, on
// local-sync and local-task, compared with NumPy (rtol/atol 1e-5: float32
// sums in another order, exp within MLIR's polynomial approximation). Peak
// equals the liveness walk's and nothing is left live.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(11); np.save('%t.x.npy', (0.5 * r.standard_normal((1000, 64))).astype(np.float32)); np.save('%t.w.npy', (0.25 * r.standard_normal((64, 48))).astype(np.float32)); np.save('%t.b.npy', r.standard_normal(48).astype(np.float32))"
// RUN: ferry-compile %s -o %t.fvm
//
// matmul + bias + ReLU (fill, matmul, generic): one dispatch of 8
// workgroups (1000 rows in tiles of 128, what the fused matmul takes as a
// root: DispatchAnalysis.cpp), its only allocation the result
// (1000 * 48 * 4 = 192000; inputs 256000 + 12288 + 192).
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --check-prefix=ASYNC
// ASYNC-LABEL: func.func @mlp(
// ASYNC:         stream.async.dispatch.entry @mlp_dispatch_0::@mlp_dispatch_0 workgroups(%c8, %c1, %c1)
// ASYNC-NOT:     stream.async.dispatch
// ASYNC-LABEL: func.func @exp_matmul(
// ASYNC:         stream.async.dispatch.entry @exp_matmul_dispatch_0::@exp_matmul_dispatch_0
// ASYNC-NOT:     stream.async.dispatch
// ASYNC-LABEL: func.func @row_sum_exp(
// ASYNC:         stream.async.dispatch.entry @row_sum_exp_dispatch_0::@row_sum_exp_dispatch_0 workgroups(%c5, %c1, %c1)
// ASYNC-NOT:     stream.async.dispatch
// ASYNC-LABEL: func.func @shared(
// ASYNC:         stream.async.dispatch.entry @shared_dispatch_0::@shared_dispatch_0
// ASYNC:         stream.async.dispatch.entry @shared_dispatch_1::@shared_dispatch_1
// RUN: ferry-run %t.fvm --function=mlp --input=@%t.x.npy --input=@%t.w.npy --input=@%t.b.npy --output=@%t.mlp.sync.npy --device=__device_0=local-sync --stats=%t.mlp.sync.json
// RUN: ferry-run %t.fvm --function=mlp --input=@%t.x.npy --input=@%t.w.npy --input=@%t.b.npy --output=@%t.mlp.task.npy --device=__device_0=local-task --stats=%t.mlp.task.json
// RUN: %python -c "import numpy as np; x, w, b = (np.load('%t.' + n + '.npy') for n in 'xwb'); ref = np.maximum(x @ w + b, 0); [np.testing.assert_allclose(np.load('%t.mlp.' + d + '.npy'), ref, rtol=1e-5, atol=1e-5) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.mlp.sync.json live_bytes_at_exit=0 copies=0 fills=0 dispatches=1 allocations=4 peak_bytes=460480
// RUN: %python %S/check_stats.py %t.mlp.task.json live_bytes_at_exit=0 copies=0 fills=0 dispatches=1 allocations=4 peak_bytes=460480
//
// exp(x) @ w, ReLU, dynamic batch: exp is computed tile by tile inside the
// dispatch (its destination is made there, never by the program).
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x.npy --input=@%t.w.npy --output=@%t.em.sync.npy --device=__device_0=local-sync --stats=%t.em.sync.json
// RUN: ferry-run %t.fvm --function=exp_matmul --input=@%t.x.npy --input=@%t.w.npy --output=@%t.em.task.npy --device=__device_0=local-task --stats=%t.em.task.json
// RUN: %python -c "import numpy as np; x, w = (np.load('%t.' + n + '.npy') for n in 'xw'); ref = np.maximum(np.exp(x) @ w, 0); [np.testing.assert_allclose(np.load('%t.em.' + d + '.npy'), ref, rtol=1e-5, atol=1e-5) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.em.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=460288
// RUN: %python %S/check_stats.py %t.em.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=460288
//
// 2 * sum(exp(x), axis=1): exp in the reduction's body, the scaling
// written over the sum (the splat of 2.0 is a buffer it reads: 4000 bytes
// next to the sum).
// RUN: ferry-run %t.fvm --function=row_sum_exp --input=@%t.x.npy --output=@%t.rs.sync.npy --device=__device_0=local-sync --stats=%t.rs.sync.json
// RUN: ferry-run %t.fvm --function=row_sum_exp --input=@%t.x.npy --output=@%t.rs.task.npy --device=__device_0=local-task --stats=%t.rs.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = 2 * np.exp(x).sum(axis=1); [np.testing.assert_allclose(np.load('%t.rs.' + d + '.npy'), ref, rtol=1e-5, atol=1e-5) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.rs.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=264000
// RUN: %python %S/check_stats.py %t.rs.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=264000
//
// A matmul result that is also returned is not fused into its ReLU: it
// stays a value of its own (two dispatches, two results).
// RUN: ferry-run %t.fvm --function=shared --input=@%t.x.npy --input=@%t.w.npy --output=@%t.sh.m.npy --output=@%t.sh.r.npy --device=__device_0=local-task --stats=%t.sh.json
// RUN: %python -c "import numpy as np; x, w = (np.load('%t.' + n + '.npy') for n in 'xw'); m = x @ w; np.testing.assert_allclose(np.load('%t.sh.m.npy'), m, rtol=1e-5, atol=1e-5); np.testing.assert_allclose(np.load('%t.sh.r.npy'), np.maximum(m, 0), rtol=1e-5, atol=1e-5)"
// RUN: %python %S/check_stats.py %t.sh.json live_bytes_at_exit=0 copies=0 dispatches=2 peak_bytes=652288
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1000x64,64x48,48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 460480 (inputs 268480, allocated 192000)
// WALK-NEXT: func.func @mlp
// WALK: remark: peak live bytes: 460288 (inputs 268288, allocated 192000)
// WALK-NEXT: func.func @exp_matmul
// WALK: remark: peak live bytes: 264000 (inputs 256000, allocated 8000)
// WALK-NEXT: func.func @row_sum_exp
// WALK: remark: peak live bytes: 652288 (inputs 268288, allocated 384000)
// WALK-NEXT: func.func @shared
func.func @mlp(%x: tensor<1000x64xf32>, %w: tensor<64x48xf32>, %b: tensor<48xf32>) -> tensor<1000x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1000x64xf32>, tensor<64x48xf32>) outs(%z : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %bb = linalg.broadcast ins(%b : tensor<48xf32>) outs(%e : tensor<1000x48xf32>) dimensions = [0]
  %a = arith.addf %m, %bb : tensor<1000x48xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %r = arith.maximumf %a, %zz : tensor<1000x48xf32>
  return %r : tensor<1000x48xf32>
}
func.func @exp_matmul(%x: tensor<?x64xf32>, %w: tensor<64x48xf32>) -> tensor<?x48xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %ex = math.exp %x : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x64xf32>, tensor<64x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  %e2 = tensor.empty(%n) : tensor<?x48xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x48xf32>) -> tensor<?x48xf32>
  %r = arith.maximumf %m, %zz : tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}
func.func @row_sum_exp(%x: tensor<1000x64xf32>) -> tensor<1000xf32> {
  %zero = arith.constant 0.0 : f32
  %ex = math.exp %x : tensor<1000x64xf32>
  %e = tensor.empty() : tensor<1000xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1000xf32>) -> tensor<1000xf32>
  %s = linalg.reduce ins(%ex : tensor<1000x64xf32>) outs(%z : tensor<1000xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %two = arith.constant dense<2.0> : tensor<1000xf32>
  %r = arith.mulf %s, %two : tensor<1000xf32>
  return %r : tensor<1000xf32>
}
func.func @shared(%x: tensor<1000x64xf32>, %w: tensor<64x48xf32>) -> (tensor<1000x48xf32>, tensor<1000x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x48xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1000x64xf32>, tensor<64x48xf32>) outs(%z : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %e2 = tensor.empty() : tensor<1000x48xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1000x48xf32>) -> tensor<1000x48xf32>
  %r = arith.maximumf %m, %zz : tensor<1000x48xf32>
  return %m, %r : tensor<1000x48xf32>, tensor<1000x48xf32>
}
