// Inputs and outputs as NumPy .npy files, checked with NumPy itself.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.arange(6, dtype=np.float32).reshape(2, 3)); np.save('%t.b.npy', np.full((2, 3), 2, dtype=np.float32))"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.a.npy --input=@%t.b.npy --output=@%t.out.npy --stats=%t.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=72
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x3,2x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 72 (inputs 48, allocated 24)
// CHECK: 2x3xf32=[0 2 4][6 8 10]
// RUN: %python -c "import numpy as np; out = np.load('%t.out.npy'); assert out.dtype == np.float32 and out.shape == (2, 3), out; assert (out == np.arange(6).reshape(2, 3) * 2).all(), out"
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = arith.mulf %a, %b : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
