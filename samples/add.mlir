// Adds two 4-element i32 tensors.
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
