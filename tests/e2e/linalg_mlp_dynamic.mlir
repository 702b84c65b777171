// A matmul and a bias + ReLU linalg.generic with a dynamic batch, compiled to
// one native dispatch (dispatch formation fuses the fill, the matmul and the
// generic, which writes over the matmul's tile), on local-sync and
// local-task, compared with NumPy: no temporary, no copies, and the
// allocator's peak equals the liveness walk's.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); np.save('%t.x.npy', r.standard_normal((37, 64)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((64, 32)).astype(np.float32)); np.save('%t.b.npy', r.standard_normal(32).astype(np.float32))"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=mlp --input=@%t.x.npy --input=@%t.w.npy --input=@%t.b.npy --output=@%t.sync.npy --device=__device_0=local-sync --stats=%t.sync.json
// RUN: ferry-run %t.fvm --function=mlp --input=@%t.x.npy --input=@%t.w.npy --input=@%t.b.npy --output=@%t.task.npy --device=__device_0=local-task --stats=%t.task.json
// RUN: %python -c "import numpy as np; x, w, b = (np.load('%t.' + n + '.npy') for n in 'xwb'); ref = np.maximum(x @ w + b, 0); [np.testing.assert_allclose(np.load('%t.' + d + '.npy'), ref, rtol=1e-5, atol=1e-5) for d in ('sync', 'task')]"
// Inputs 37*64*4 + 64*32*4 + 32*4 = 17792; the result 37*32*4 = 4736 (the
// fill, the matmul and the generic are one dispatch: no temporary).
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=22528 copies=0 dispatches=1
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=22528 copies=0 dispatches=1
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=37x64,64x32,32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 22528 (inputs 17792, allocated 4736)
// A second batch size through the same module.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(8); np.save('%t.x2.npy', r.standard_normal((3, 64)).astype(np.float32))"
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=mlp --input=@%t.x2.npy --input=@%t.w.npy --input=@%t.b.npy --output=@%t.small.npy --device=__device_0=local-task
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=9472
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3x64,64x32,32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALLWALK
// SMALLWALK: remark: peak live bytes: 9472 (inputs 9088, allocated 384)
// RUN: %python -c "import numpy as np; x, w, b = (np.load('%t.' + n + '.npy') for n in ('x2', 'w', 'b')); np.testing.assert_allclose(np.load('%t.small.npy'), np.maximum(x @ w + b, 0), rtol=1e-5, atol=1e-5)"
func.func @mlp(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %e2 = tensor.empty(%n) : tensor<?x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<?x32xf32>, tensor<32xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
