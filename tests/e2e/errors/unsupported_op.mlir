// An op Ferry cannot run is named, with its location, and is the only error.
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: unsupported_op.mlir:[[@LINE+2]]:8: error: 'arith.divsi' is not supported by Ferry
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.divsi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
