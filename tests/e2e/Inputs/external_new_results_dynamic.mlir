// Used by external_new_results.mlir: new results of dynamic shape.
func.func private @Repeat.function(tensor<?xi32>) -> tensor<?xi32> attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func private @Double.function(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func @dynamic_used(%x: tensor<?xi32>) -> tensor<?xi32> {
  %r = call @Repeat.function(%x) : (tensor<?xi32>) -> tensor<?xi32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %r, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %d = call @Double.function(%r, %e) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %s = arith.addi %d, %r : tensor<?xi32>
  return %s : tensor<?xi32>
}
func.func @dynamic_returned(%x: tensor<?xi32>) -> tensor<?xi32> {
  %r = call @Repeat.function(%x) : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
