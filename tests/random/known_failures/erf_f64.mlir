func.func @main(%a: tensor<4xf64>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<4xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf64>) outs(%e : tensor<4xf64>) {
    ^bb0(%x: f64, %o: f64):
      %y = math.erf %x : f64
      linalg.yield %y : f64
  } -> tensor<4xf64>
  return %r : tensor<4xf64>
}
