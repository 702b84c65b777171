// Elementwise arith and math ops on whole tensors that no built-in kernel
// implements (divf, maximumf, math.exp, a cast) become linalg.generics that
// dispatch formation merges into one (the constant fill too: no
// intermediate is allocated), a native dispatch of dynamic shape, on
// local-sync and local-task, compared with NumPy. Peak equals the liveness
// walk's.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); np.save('%t.a.npy', r.standard_normal(1000).astype(np.float32)); np.save('%t.b.npy', (r.random(1000) + 0.5).astype(np.float32))"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=@%t.a.npy --input=@%t.b.npy --output=@%t.sync.npy --device=__device_0=local-sync --stats=%t.sync.json
// RUN: ferry-run %t.fvm --function=main --input=@%t.a.npy --input=@%t.b.npy --output=@%t.task.npy --device=__device_0=local-task --stats=%t.task.json
// RUN: %python -c "import numpy as np; a, b = np.load('%t.a.npy'), np.load('%t.b.npy'); ref = np.exp(np.maximum(a / b, np.float32(-1))).astype(np.float64); [np.testing.assert_allclose(np.load('%t.' + d + '.npy'), ref, rtol=1e-6) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=16000 dispatches=1
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=16000 dispatches=1
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1000,1000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 16000 (inputs 8000, allocated 8000)
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf64> {
  %q = arith.divf %a, %b : tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %m1 = arith.constant -1.0 : f32
  %floor = linalg.fill ins(%m1 : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = arith.maximumf %q, %floor : tensor<?xf32>
  %x = math.exp %m : tensor<?xf32>
  %d = arith.extf %x : tensor<?xf32> to tensor<?xf64>
  return %d : tensor<?xf64>
}
