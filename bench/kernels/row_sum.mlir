// Row sum for bench/runtime/kernel_benchmarks.cpp: out[i] = sum_j x[i, j]
// over 4096x4096 f32, written into the host's out parameter.
func.func @row_sum(%x: tensor<4096x4096xf32>, %out: tensor<4096xf32>)
    -> (tensor<4096xf32> {iree.abi.tied = 1 : index}) {
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%out : tensor<4096xf32>) -> tensor<4096xf32>
  %s = linalg.reduce ins(%x : tensor<4096x4096xf32>) outs(%z : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %s : tensor<4096xf32>
}
