// RUN: ferry-opt %s --split-input-file --verify-diagnostics --convert-input-to-stream

// A negative constant stride is refused by name though the offset is
// dynamic (a dynamic one fails the run-time bounds check).
func.func @negative_stride(%d: tensor<8xi32>, %t: tensor<2xi32>, %o: index) -> tensor<8xi32> {
  // expected-error @+1 {{: the stride -2 of dimension 0 is negative}}
  %r = tensor.insert_slice %t into %d[%o] [2] [-2] : tensor<2xi32> into tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// Out of bounds by constants the upstream verifier does not fold in.
func.func @out_of_bounds(%d: tensor<8xi32>, %t: tensor<4xi32>) -> tensor<8xi32> {
  %c6 = arith.constant 6 : index
  // expected-error @+1 {{'tensor.insert_slice' at}}
  %r = tensor.insert_slice %t into %d[%c6] [4] [1] : tensor<4xi32> into tensor<8xi32>
  return %r : tensor<8xi32>
}
