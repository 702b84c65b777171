// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 | FileCheck %s
// CHECK: 4xi32=[11 22 33 44]
// CHECK-EMPTY:
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
