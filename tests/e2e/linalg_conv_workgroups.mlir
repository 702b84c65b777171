// A convolution on one image (batch 1) is split over workgroups along its
// output rows, not its batch: 11 rows in tiles of 5 (the last one partial)
// are 3 workgroups, with the input window of each tile sliced by the
// strided index map. Same results on local-sync and local-task as NumPy's
// (linalg_reference.py; rtol and atol 1e-5).
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s
// CHECK: stream.async.dispatch.entry @conv_dispatch_0::@conv_dispatch_0 workgroups(%c3, %c1, %c1)
// RUN: %python %S/linalg_reference.py conv_split inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=conv --input=@%t.in0.npy --input=@%t.in1.npy --output=@%t.sync.out0.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=conv --input=@%t.in0.npy --input=@%t.in1.npy --output=@%t.task.out0.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/linalg_reference.py conv_split check %t sync task | FileCheck %s --check-prefix=NUMPY
// NUMPY: conv_split: 1 results match NumPy
// Peak equals the liveness walk's: the inputs and the result.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=14240
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=14240
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 14240 (inputs 10368, allocated 3872)
// WALK-NEXT: func.func @conv
func.func @conv(%x: tensor<1x24x24x4xf32>, %f: tensor<3x3x4x8xf32>) -> tensor<1x11x11x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x11x11x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x11x11x8xf32>) -> tensor<1x11x11x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x24x24x4xf32>, tensor<3x3x4x8xf32>) outs(%z : tensor<1x11x11x8xf32>) -> tensor<1x11x11x8xf32>
  return %r : tensor<1x11x11x8xf32>
}
