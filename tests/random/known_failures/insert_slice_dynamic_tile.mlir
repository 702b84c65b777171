// Feature strided_dynamic_tiles (README.md, known failures): a copy-kernel
// insert_slice (not contiguous: dim 2 is cut) whose tile has dynamic dims
// at offset 0 with stride 1 and no static dim cut, so every map of the
// kernel is the identity. ferry-compile fails with "'memref.copy' op
// dispatch result could not be written in place into its binding".
//   ferry-compile insert_slice_dynamic_tile.mlir -o x.fvm
//   ferry-run x.fvm --input=2x4x2xf32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x4x1xf32=1,2,3,4,5,6,7,8
// expected: 2x4x2xf32=[[1 0][2 0][3 0][4 0]][[5 0][6 0][7 0][8 0]]
func.func @main(%d: tensor<2x4x2xf32>, %t: tensor<?x4x?xf32>) -> tensor<2x4x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %t, %c2 : tensor<?x4x?xf32>
  %m = tensor.dim %t, %c0 : tensor<?x4x?xf32>
  %r = tensor.insert_slice %t into %d[0, 0, 0] [%m, 4, %n] [1, 1, 1] : tensor<?x4x?xf32> into tensor<2x4x2xf32>
  return %r : tensor<2x4x2xf32>
}
