// conv_2d_nhwc_hwcf for bench/runtime/kernel_benchmarks.cpp: a 3x3
// convolution of a 1x58x58x64 f32 image with 64 filters (a ResNet-style
// layer), stride 1, written into the host's 1x56x56x64 output.
func.func @conv2d(%x: tensor<1x58x58x64xf32>, %f: tensor<3x3x64x64xf32>,
                  %o: tensor<1x56x56x64xf32>)
    -> (tensor<1x56x56x64xf32> {iree.abi.tied = 2 : index}) {
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>)
      outs(%z : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}
