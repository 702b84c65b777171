// RUN: ferry-opt %s --split-input-file --verify-diagnostics --convert-input-to-stream

// A strided slice is a copy kernel, which takes constant offsets and
// strides only.
func.func @strided_dynamic(%a: tensor<8x4xf32>, %i: index) -> tensor<3x2xf32> {
  // expected-error @+1 {{is strided (not one contiguous range of its source) with offsets or strides that are not constants}}
  %s = tensor.extract_slice %a[%i, 0] [3, 2] [2, 1] : tensor<8x4xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// Out of bounds by constants the upstream verifier does not fold in.
func.func @out_of_bounds(%d: tensor<8xi32>, %t: tensor<4xi32>) -> tensor<8xi32> {
  %c6 = arith.constant 6 : index
  // expected-error @+1 {{'tensor.insert_slice' at}}
  %r = tensor.insert_slice %t into %d[%c6] [4] [1] : tensor<4xi32> into tensor<8xi32>
  return %r : tensor<8xi32>
}
