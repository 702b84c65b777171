// Static shapes: a matmul accumulating into the host's argument (which the
// program may not write, so copy-on-write copies it once), an elementwise
// linalg.generic with math.exp (a polynomial approximation in the kernel)
// and a linalg.reduce row sum, on local-sync and local-task, compared with
// NumPy; the allocator's peak equals the liveness walk's.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); [np.save('%t.' + n + '.npy', (0.25 * r.standard_normal(s)).astype(np.float32)) for n, s in (('a', (16, 24)), ('b', (24, 8)), ('c', (16, 8)))]"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=@%t.a.npy --input=@%t.b.npy --input=@%t.c.npy --output=@%t.sync.m.npy --output=@%t.sync.s.npy --device=__device_0=local-sync --stats=%t.sync.json
// RUN: ferry-run %t.fvm --function=main --input=@%t.a.npy --input=@%t.b.npy --input=@%t.c.npy --output=@%t.task.m.npy --output=@%t.task.s.npy --device=__device_0=local-task --stats=%t.task.json
// RUN: %python -c "import numpy as np; a, b, c = (np.load('%t.' + n + '.npy') for n in 'abc'); m = c + a @ b; s = np.exp(m).sum(axis=1); [(np.testing.assert_allclose(np.load('%t.' + d + '.m.npy'), m, rtol=1e-5, atol=1e-6), np.testing.assert_allclose(np.load('%t.' + d + '.s.npy'), s, rtol=1e-5)) for d in ('sync', 'task')]"
// The host's c is copied once before the matmul writes it.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=3392 copies=1 dispatches=2
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=3392 copies=1 dispatches=2
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 3392 (inputs 2816, allocated 576)
func.func @main(%a: tensor<16x24xf32>, %b: tensor<24x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<16x24xf32>, tensor<24x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%t : tensor<16x8xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %m, %s : tensor<16x8xf32>, tensor<16xf32>
}
