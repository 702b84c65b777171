// insert_slice of K = 4 tiles, each made by a fill or a native dispatch,
// into one buffer (the returned tensor.empty): every tile is made in its
// range of that buffer (allocation scheduling emplaces the tile's producers
// at the update's byte offset), so there is no copy and no allocation but
// the input and the result. Nothing is live at exit; peak_bytes equals the
// liveness walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=160 fills=3 dispatches=2
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=160 fills=3 dispatches=2
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 160 (inputs 32, allocated 128)
// The result against NumPy: tiles of ones, a + 2, a * 2 and ones.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.arange(1, 9, dtype=np.float32).reshape(2, 4))"
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=@%t.a.npy --output=@%t.out.npy
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=160
// RUN: %python -c "import numpy as np; a = np.load('%t.a.npy'); want = np.concatenate([np.ones((2, 4)), a + 2, a * 2, np.ones((2, 4))]).astype(np.float32); assert (np.load('%t.out.npy') == want).all()"
// CHECK: 8x4xf32=[1 1 1 1][1 1 1 1][3 4 5 6][7 8 9 10][2 4 6 8][10 12 14 16][1 1 1 1][1 1 1 1]

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %t0e = tensor.empty() : tensor<2x4xf32>
  %t0 = linalg.fill ins(%c1 : f32) outs(%t0e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %d0 = tensor.insert_slice %t0 into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %t1e = tensor.empty() : tensor<2x4xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xf32>) outs(%t1e : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %c2 : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %d1 = tensor.insert_slice %t1 into %d0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %t2e = tensor.empty() : tensor<2x4xf32>
  %t2f = linalg.fill ins(%c2 : f32) outs(%t2e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xf32>) outs(%t2f : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %d2 = tensor.insert_slice %t2 into %d1[4, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %t3e = tensor.empty() : tensor<2x4xf32>
  %t3 = linalg.fill ins(%c1 : f32) outs(%t3e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %d3 = tensor.insert_slice %t3 into %d2[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  return %d3 : tensor<8x4xf32>
}
