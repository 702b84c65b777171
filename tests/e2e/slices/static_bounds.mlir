// A slice known out of bounds at compile time (constants the upstream
// verifier does not see) is a compile error naming the op and where it is.
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// CHECK: static_bounds.mlir:[[# @LINE + 4]]:8: error: 'tensor.extract_slice' at {{.*}}static_bounds.mlir:[[# @LINE + 4]]:8: dimension 0 is out of bounds: offset 7, size 2, stride 1 reach index 8 of 'tensor<8x4xf32>'

func.func @main(%a: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %c7 = arith.constant 7 : index
  %s = tensor.extract_slice %a[%c7, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
