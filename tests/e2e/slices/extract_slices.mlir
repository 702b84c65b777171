// extract_slice read in place: a contiguous slice at a dynamic offset read
// by a native dispatch, and a rank-reduced row read by tensor.extract, are
// views of the input (the dispatch's binding and the host read start at the
// slice's byte offset): no copy. A strided slice (every other row and
// column) is a copy kernel into its result, the only other allocation,
// counted as the one copy (of the slice's 32 bytes); the other native
// dispatch is the one reading the contiguous slice. Nothing is live at
// exit; peak_bytes equals the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=8x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 --input=index=5 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=8x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 --input=index=5 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=1 bytes_copied=32 allocations=3 dispatches=1 peak_bytes=192
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=1 bytes_copied=32 allocations=3 dispatches=1 peak_bytes=192
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 192 (inputs 128, allocated 64)
// CHECK:      2x4xf32=[22 23 24 25][26 27 28 29]
// CHECK-NEXT: 4x2xf32=[5 7][13 15][21 23][29 31]
// CHECK-NEXT: f32=13
// CHECK-EMPTY:
// The results against NumPy.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.random.default_rng(3).standard_normal((8, 4)).astype(np.float32))"
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=@%t.a.npy --input=index=3 --output=@%t.t.npy --output=@%t.st.npy --output=@%t.v.npy
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=192
// RUN: %python -c "import numpy as np; a = np.load('%t.a.npy'); assert (np.load('%t.t.npy') == a[3:5] + np.float32(2)).all(); assert (np.load('%t.st.npy') == a[1::2, 1::2]).all(); assert np.load('%t.v.npy') == a[3, 1]"
// A dynamic offset out of bounds fails at run time naming the op.
// RUN: not ferry-run %t.fvm --input=8x4xf32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31 --input=index=7 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}'tensor.extract_slice' at {{.*}}extract_slices.mlir:[[# @LINE + 5]]:8: dimension 0 is out of bounds (offset, size and stride reach past the source)

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: tensor<8x4xf32>, %i: index) -> (tensor<2x4xf32>, tensor<4x2xf32>, f32) {
  %c2 = arith.constant 2.0 : f32
  %s = tensor.extract_slice %a[%i, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
  %te = tensor.empty() : tensor<2x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x4xf32>) outs(%te : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %c2 : f32
    linalg.yield %y : f32
  } -> tensor<2x4xf32>
  %st = tensor.extract_slice %a[1, 1] [4, 2] [2, 2] : tensor<8x4xf32> to tensor<4x2xf32>
  %row = tensor.extract_slice %a[3, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
  %c1 = arith.constant 1 : index
  %v = tensor.extract %row[%c1] : tensor<4xf32>
  return %t, %st, %v : tensor<2x4xf32>, tensor<4x2xf32>, f32
}
