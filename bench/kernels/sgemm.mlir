// sgemm for bench/runtime/kernel_benchmarks.cpp: C = A x B, 1024x1024x1024
// f32, written into the host's C (an out parameter: no allocation, no copy
// per call).
func.func @sgemm(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                 %c: tensor<1024x1024xf32>)
    -> (tensor<1024x1024xf32> {iree.abi.tied = 2 : index}) {
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
