// An op Ferry cannot run is named, with its location, and is the only error.
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: unsupported_op.mlir:[[@LINE+2]]:8: error: 'tensor.concat' is not supported by Ferry
func.func @main(%a: tensor<4xi32>) -> tensor<8xi32> {
  %0 = tensor.concat dim(0) %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
