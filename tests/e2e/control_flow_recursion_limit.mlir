// Recursion without end is stopped by the interpreter's call depth limit
// with an error naming the calls, not a crash.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 2>&1 | FileCheck %s
// CHECK: ferry-run: error: {{.*}}called from function 'forever' at code offset {{[0-9]+}} (call): function 'forever' at code offset {{[0-9]+}} (call): call depth exceeds 1024 calling 'forever' (unbounded recursion?)

func.func private @forever(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %m = arith.addi %n, %c1 : i32
  %r = call @forever(%m) : (i32) -> i32
  return %r : i32
}
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : i32
  %n = call @forever(%c0) : (i32) -> i32
  %e = tensor.empty() : tensor<4xi32>
  %f = linalg.fill ins(%n : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = arith.addi %x, %f : tensor<4xi32>
  return %r : tensor<4xi32>
}
