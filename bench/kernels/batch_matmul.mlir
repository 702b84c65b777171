// batch_matmul for bench/runtime/kernel_benchmarks.cpp: C[b] = A[b] x B[b],
// 16 batches of 256x256x256 f32, written into the host's C.
func.func @batch_matmul(%a: tensor<16x256x256xf32>, %b: tensor<16x256x256xf32>,
                        %c: tensor<16x256x256xf32>)
    -> (tensor<16x256x256xf32> {iree.abi.tied = 2 : index}) {
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%c : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x256x256xf32>, tensor<16x256x256xf32>)
                           outs(%z : tensor<16x256x256xf32>) -> tensor<16x256x256xf32>
  return %r : tensor<16x256x256xf32>
}
