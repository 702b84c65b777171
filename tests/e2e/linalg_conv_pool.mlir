// Convolutions and pooling with strides and dilations, static shapes:
// conv_2d_nhwc_hwcf, conv_2d_nchw_fchw, depthwise_conv_2d_nhwc_hwc,
// pooling_nhwc_max and pooling_nhwc_sum (their accumulators zero- or
// lowest-filled), on local-sync and local-task, against NumPy
// (linalg_reference.py; f32, rtol and atol 1e-5 for the summation order).
// The pooling windows are shape-only: no allocation for them (10: the five
// inputs and the five results, each filled), no copies; the peak equals the
// liveness walk's.
// RUN: %python %S/linalg_reference.py window inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=window --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --output=@%t.sync.out3.npy --output=@%t.sync.out4.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=window --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --output=@%t.task.out3.npy --output=@%t.task.out4.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/linalg_reference.py window check %t sync task | FileCheck %s
// CHECK: window: 5 results match NumPy
// Inputs (540 + 72 + 147 + 108 + 27) * 4 = 3576 bytes; results
// (128 + 100 + 120 + 120 + 72) * 4 = 2160 bytes.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 allocations=10 fills=0 dispatches=5 peak_bytes=5736
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=10 fills=0 dispatches=5 peak_bytes=5736
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 5736 (inputs 3576, allocated 2160)
func.func @window(%img: tensor<2x9x10x3xf32>, %f: tensor<3x2x3x4xf32>, %nchw: tensor<1x3x7x7xf32>, %ff: tensor<4x3x3x3xf32>, %dw: tensor<3x3x3xf32>)
    -> (tensor<2x4x4x4xf32>, tensor<1x4x5x5xf32>, tensor<2x5x4x3xf32>, tensor<2x4x5x3xf32>, tensor<2x4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e0 = tensor.empty() : tensor<2x4x4x4xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>}
      ins(%img, %f : tensor<2x9x10x3xf32>, tensor<3x2x3x4xf32>) outs(%z0 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %e1 = tensor.empty() : tensor<1x4x5x5xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %nc = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%nchw, %ff : tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%z1 : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %e2 = tensor.empty() : tensor<2x5x4x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x5x4x3xf32>) -> tensor<2x5x4x3xf32>
  %depth = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>}
      ins(%img, %dw : tensor<2x9x10x3xf32>, tensor<3x3x3xf32>) outs(%z2 : tensor<2x5x4x3xf32>) -> tensor<2x5x4x3xf32>
  %w3 = tensor.empty() : tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<2x4x5x3xf32>
  %l3 = linalg.fill ins(%lowest : f32) outs(%e3 : tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  %max = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %w3 : tensor<2x9x10x3xf32>, tensor<2x2xf32>) outs(%l3 : tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  %w4 = tensor.empty() : tensor<3x2xf32>
  %e4 = tensor.empty() : tensor<2x4x3x3xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %sum = linalg.pooling_nhwc_sum {strides = dense<[2, 3]> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %w4 : tensor<2x9x10x3xf32>, tensor<3x2xf32>) outs(%z4 : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %conv, %nc, %depth, %max, %sum : tensor<2x4x4x4xf32>, tensor<1x4x5x5xf32>, tensor<2x5x4x3xf32>, tensor<2x4x5x3xf32>, tensor<2x4x3x3xf32>
}
