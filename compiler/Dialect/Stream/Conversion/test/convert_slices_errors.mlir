// RUN: ferry-opt %s --split-input-file --verify-diagnostics --convert-input-to-stream

// A strided slice is a copy kernel, which takes constant strides only, and
// dynamic offsets only where the dims after the first are static.
func.func @strided_dynamic(%a: tensor<8x4xf32>, %i: index) -> tensor<3x2xf32> {
  // expected-error @+1 {{is strided (not one contiguous range of its source) with strides that are not constants, or offsets that are not constants where a dim after the first is dynamic; only contiguous slices may have dynamic strides}}
  %s = tensor.extract_slice %a[0, 0] [3, 2] [%i, 1] : tensor<8x4xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

func.func @strided_dynamic_inner(%a: tensor<8x?xf32>, %i: index) -> tensor<3x2xf32> {
  // expected-error @+1 {{is strided (not one contiguous range of its source) with strides that are not constants, or offsets that are not constants where a dim after the first is dynamic}}
  %s = tensor.extract_slice %a[%i, 0] [3, 2] [2, 1] : tensor<8x?xf32> to tensor<3x2xf32>
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
