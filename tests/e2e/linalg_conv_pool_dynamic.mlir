// The ops of linalg_conv_pool.mlir with every size dynamic (output sizes
// computed from the inputs' dims), at two sizes through the same module, on
// local-sync and local-task, against NumPy (linalg_reference.py). The
// program checks each window fits its input before the dispatch (at the
// end, an output larger than the input allows is refused, naming the op).
// The sum pooling's window has dynamic sizes, so it is a binding: one tiny
// allocation (3x2 f32, 24 bytes) besides the inputs and results; the max
// pooling's static window allocates nothing. No copies; the peak equals
// the liveness walk's.
// RUN: %python %S/linalg_reference.py window_dynamic inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=window --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --output=@%t.sync.out3.npy --output=@%t.sync.out4.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=window --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --output=@%t.task.out3.npy --output=@%t.task.out4.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/linalg_reference.py window_dynamic check %t sync task | FileCheck %s
// CHECK: window_dynamic: 5 results match NumPy
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 allocations=11 fills=0 dispatches=5 peak_bytes=5760
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=11 fills=0 dispatches=5 peak_bytes=5760
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x9x10x3,3x2x3x4,1x3x7x7,4x3x3x3,3x3x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 5760 (inputs 3576, allocated 2184)
// RUN: %python %S/linalg_reference.py window_dynamic_small inputs %t.small
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=window --input=@%t.small.in0.npy --input=@%t.small.in1.npy --input=@%t.small.in2.npy --input=@%t.small.in3.npy --input=@%t.small.in4.npy --output=@%t.small.task.out0.npy --output=@%t.small.task.out1.npy --output=@%t.small.task.out2.npy --output=@%t.small.task.out3.npy --output=@%t.small.task.out4.npy --device=__device_0=local-task > /dev/null
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=1040
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x5x6x2,2x2x2x3,2x2x4x5,1x2x2x2,2x2x2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALLWALK
// SMALLWALK: remark: peak live bytes: 1040 (inputs 720, allocated 320)
// SMALLWALK-NEXT: func.func @window
// RUN: %python %S/linalg_reference.py window_dynamic_small check %t.small task | FileCheck %s --check-prefix=SMALL
// SMALL: window_dynamic_small: 5 results match NumPy
// RUN: not ferry-run %t.fvm --function=too_small --input=1x4x4x1xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input=2x2x1x1xf32=1,1,1,1 --input=1x4x4x1xf32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 2>&1 | FileCheck %s --check-prefix=TOO-SMALL
// TOO-SMALL: operand 0 of 'linalg.conv_2d_nhwc_hwcf' at {{.*}}linalg_conv_pool_dynamic.mlir:{{[0-9]+}}:{{[0-9]+}} is too small in dimension 1 for the window the loops read
func.func @window(%img: tensor<?x?x?x?xf32>, %f: tensor<?x?x?x?xf32>, %nchw: tensor<?x?x?x?xf32>, %ff: tensor<?x?x?x?xf32>, %dw: tensor<?x?x?xf32>)
    -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %n = tensor.dim %img, %c0 : tensor<?x?x?x?xf32>
  %h = tensor.dim %img, %c1 : tensor<?x?x?x?xf32>
  %w = tensor.dim %img, %c2 : tensor<?x?x?x?xf32>
  %c = tensor.dim %img, %c3 : tensor<?x?x?x?xf32>
  // conv_2d_nhwc_hwcf, strides 2, dilations [1, 2].
  %kh = tensor.dim %f, %c0 : tensor<?x?x?x?xf32>
  %kw = tensor.dim %f, %c1 : tensor<?x?x?x?xf32>
  %fo = tensor.dim %f, %c3 : tensor<?x?x?x?xf32>
  %h0a = arith.subi %h, %kh : index
  %h0b = arith.divui %h0a, %c2 : index
  %oh0 = arith.addi %h0b, %c1 : index
  %kw2 = arith.muli %kw, %c2 : index
  %w0a = arith.subi %w, %kw2 : index
  %w0b = arith.addi %w0a, %c1 : index
  %w0c = arith.divui %w0b, %c2 : index
  %ow0 = arith.addi %w0c, %c1 : index
  %e0 = tensor.empty(%n, %oh0, %ow0, %fo) : tensor<?x?x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>}
      ins(%img, %f : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%z0 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // conv_2d_nchw_fchw, strides and dilations 1.
  %n1 = tensor.dim %nchw, %c0 : tensor<?x?x?x?xf32>
  %h1 = tensor.dim %nchw, %c2 : tensor<?x?x?x?xf32>
  %w1 = tensor.dim %nchw, %c3 : tensor<?x?x?x?xf32>
  %f1 = tensor.dim %ff, %c0 : tensor<?x?x?x?xf32>
  %kh1 = tensor.dim %ff, %c2 : tensor<?x?x?x?xf32>
  %kw1 = tensor.dim %ff, %c3 : tensor<?x?x?x?xf32>
  %h1a = arith.subi %h1, %kh1 : index
  %oh1 = arith.addi %h1a, %c1 : index
  %w1a = arith.subi %w1, %kw1 : index
  %ow1 = arith.addi %w1a, %c1 : index
  %e1 = tensor.empty(%n1, %f1, %oh1, %ow1) : tensor<?x?x?x?xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %nc = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%nchw, %ff : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%z1 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // depthwise_conv_2d_nhwc_hwc, strides [1, 2], dilations [2, 1].
  %kh2 = tensor.dim %dw, %c0 : tensor<?x?x?xf32>
  %kw2b = tensor.dim %dw, %c1 : tensor<?x?x?xf32>
  %kh2x2 = arith.muli %kh2, %c2 : index
  %h2a = arith.subi %h, %kh2x2 : index
  %oh2 = arith.addi %h2a, %c2 : index
  %w2a = arith.subi %w, %kw2b : index
  %w2b = arith.divui %w2a, %c2 : index
  %ow2 = arith.addi %w2b, %c1 : index
  %e2 = tensor.empty(%n, %oh2, %ow2, %c) : tensor<?x?x?x?xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %depth = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>}
      ins(%img, %dw : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%z2 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // pooling_nhwc_max, a static 2x2 window, strides 2.
  %h3a = arith.subi %h, %c2 : index
  %h3b = arith.divui %h3a, %c2 : index
  %oh3 = arith.addi %h3b, %c1 : index
  %w3a = arith.subi %w, %c2 : index
  %w3b = arith.divui %w3a, %c2 : index
  %ow3 = arith.addi %w3b, %c1 : index
  %win3 = tensor.empty() : tensor<2x2xf32>
  %e3 = tensor.empty(%n, %oh3, %ow3, %c) : tensor<?x?x?x?xf32>
  %l3 = linalg.fill ins(%lowest : f32) outs(%e3 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %max = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %win3 : tensor<?x?x?x?xf32>, tensor<2x2xf32>) outs(%l3 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  // pooling_nhwc_sum, a 3x2 window of dynamic type, strides [2, 3].
  %h4a = arith.subi %h, %c3 : index
  %h4b = arith.divui %h4a, %c2 : index
  %oh4 = arith.addi %h4b, %c1 : index
  %w4a = arith.subi %w, %c2 : index
  %w4b = arith.divui %w4a, %c3 : index
  %ow4 = arith.addi %w4b, %c1 : index
  %win4 = tensor.empty(%c3, %c2) : tensor<?x?xf32>
  %e4 = tensor.empty(%n, %oh4, %ow4, %c) : tensor<?x?x?x?xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %sum = linalg.pooling_nhwc_sum {strides = dense<[2, 3]> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %win4 : tensor<?x?x?x?xf32>, tensor<?x?xf32>) outs(%z4 : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %conv, %nc, %depth, %max, %sum : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}

// The output is given: 4x4 from a 4x4 input and a 2x2 filter needs a 5x5
// input.
func.func @too_small(%img: tensor<1x?x?x1xf32>, %f: tensor<2x2x1x1xf32>, %out: tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %f : tensor<1x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%out : tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  return %r : tensor<1x?x?x1xf32>
}
