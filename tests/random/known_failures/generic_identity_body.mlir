func.func @main(%arg0: tensor<5xi32>) -> (tensor<5xi32>) {
  %e66 = tensor.empty() : tensor<5xi32>
  %g72 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<5xi32>) outs(%e66 : tensor<5xi32>) {
  ^bb0(%in: i32, %acc: i32):
    linalg.yield %in : i32
  } -> tensor<5xi32>
  return %g72 : tensor<5xi32>
}
