// The example ferry's main job runs: a chain of elementwise ops on 2-D f32
// tensors whose intermediates the compiler allocates and frees itself.
//   result = (a * b + a) * (a * b + a)
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = arith.mulf %a, %b : tensor<?x3xf32>
  %1 = arith.addf %0, %a : tensor<?x3xf32>
  %2 = arith.mulf %1, %1 : tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}
