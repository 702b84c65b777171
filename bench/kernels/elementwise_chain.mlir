// An elementwise chain for bench/runtime/kernel_benchmarks.cpp over 16M f32,
// written into the host's out parameter.
//
// The 8 ops are in one linalg.generic: the form dispatch formation's fusion
// gives a chain of 8 elementwise tensor ops.
#map = affine_map<(d0) -> (d0)>
func.func @chain_fused(%x: tensor<16777216xf32>, %out: tensor<16777216xf32>)
    -> (tensor<16777216xf32> {iree.abi.tied = 1 : index}) {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<16777216xf32>) outs(%out : tensor<16777216xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c2 = arith.constant 2.0 : f32
    %c05 = arith.constant 0.5 : f32
    %c0 = arith.constant 0.0 : f32
    %c3 = arith.constant 3.0 : f32
    %0 = arith.mulf %v, %c2 : f32
    %1 = arith.addf %0, %c05 : f32
    %2 = arith.maximumf %1, %c0 : f32
    %3 = arith.subf %2, %v : f32
    %4 = arith.mulf %3, %3 : f32
    %5 = arith.addf %4, %v : f32
    %6 = arith.minimumf %5, %c3 : f32
    %7 = arith.mulf %6, %c05 : f32
    linalg.yield %7 : f32
  } -> tensor<16777216xf32>
  return %r : tensor<16777216xf32>
}
