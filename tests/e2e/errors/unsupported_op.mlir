// An op Ferry cannot run is named, with its location.
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// CHECK: unsupported_op.mlir:[[@LINE+3]]:8: error: 'arith.divsi' is not supported by Ferry
// CHECK-NOT: error:
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.divsi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
