func.func @main(%arg0: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %e = tensor.empty() : tensor<4x2xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x2xi32>) outs(%e : tensor<4x2xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %z = arith.constant 0 : i32
    %s = arith.addi %z, %in : i32
    linalg.yield %s : i32
  } -> tensor<4x2xi32>
  return %g : tensor<4x2xi32>
}
