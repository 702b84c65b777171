// conv_2d_nchw_fchw whose output has one column and a column stride of 2:
// the kernel's view of the input row had a step of 2 over one element,
// which the subview verifier refused ("expected result type with stride =
// 2 instead of 1 in dim = 0"; random seed 71 with +cf_tensor_blocks).
// Results by hand: 3 * 5 = 15; 1 * 10 + 2 * 100 = 210 (ow = 0 reads
// columns 0 and 1; column 2 is past the window).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=1x1x1x1xi32=3 --input=1x1x1x1xi32=5 --input=1x1x1x3xi32=1,2,3 --input=1x1x1x2xi32=10,100 --stats=%t.json | FileCheck %s
// CHECK: 1x1x1x1xi32={{\[\[\[}}15]]]
// CHECK-NEXT: 1x1x1x1xi32={{\[\[\[}}210]]]
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 copies=0
func.func @main(%x: tensor<1x1x1x1xi32>, %k: tensor<1x1x1x1xi32>, %row: tensor<1x1x1x3xi32>, %pair: tensor<1x1x1x2xi32>)
    -> (tensor<1x1x1x1xi32>, tensor<1x1x1x1xi32>) {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x1x1x1xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x1x1x1xi32>) -> tensor<1x1x1x1xi32>
  %a = linalg.conv_2d_nchw_fchw {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %k : tensor<1x1x1x1xi32>, tensor<1x1x1x1xi32>) outs(%z : tensor<1x1x1x1xi32>) -> tensor<1x1x1x1xi32>
  %e2 = tensor.empty() : tensor<1x1x1x1xi32>
  %z2 = linalg.fill ins(%c0 : i32) outs(%e2 : tensor<1x1x1x1xi32>) -> tensor<1x1x1x1xi32>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%row, %pair : tensor<1x1x1x3xi32>, tensor<1x1x1x2xi32>) outs(%z2 : tensor<1x1x1x1xi32>) -> tensor<1x1x1x1xi32>
  return %a, %b : tensor<1x1x1x1xi32>, tensor<1x1x1x1xi32>
}
