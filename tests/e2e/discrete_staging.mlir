// ferry-run on the discrete testing device, whose memory is not host-visible:
// each input is written to a host-visible staging buffer and copied to the
// device, and a result the host cannot map (here the second one, the input
// buffer returned as is) is copied back through a staging buffer before it
// is printed and saved. The first result is allocated host-visible by the
// program and read directly. On local-sync nothing is staged.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-discrete --output=@%t.sum.npy --output=@%t.rhs.npy --stats=%t.discrete.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// Two inputs in, one result out, 24 bytes each; the result is read once for
// printing and saving.
// RUN: %python %S/check_stats.py %t.discrete.json copies=3 bytes_copied=72 dispatches=1 live_bytes_at_exit=0
// RUN: %python %S/check_stats.py %t.sync.json copies=0 bytes_copied=0 dispatches=1 live_bytes_at_exit=0
// The peak is the liveness walk's: the inputs and the sum (72). Staging
// never raises it: an input's staging buffer goes before the next input
// comes, and the result's while the first input has already been released.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 72 (inputs 48, allocated 24)
// RUN: %python %S/check_stats.py %t.discrete.json peak_bytes=72
// RUN: %python %S/check_stats.py %t.sync.json peak_bytes=72
// RUN: %python -c "import numpy as np; s = np.load('%t.sum.npy'); r = np.load('%t.rhs.npy'); assert (s == np.array([[11, 22, 33], [44, 55, 66]], dtype=np.float32)).all(), s; assert (r == np.array([[10, 20, 30], [40, 50, 60]], dtype=np.float32)).all(), r"
// CHECK: 2x3xf32=[11 22 33][44 55 66]
// CHECK-NEXT: 2x3xf32=[10 20 30][40 50 60]
func.func @main(%lhs: tensor<2x3xf32>, %rhs: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %sum = arith.addf %lhs, %rhs : tensor<2x3xf32>
  return %sum, %rhs : tensor<2x3xf32>, tensor<2x3xf32>
}
