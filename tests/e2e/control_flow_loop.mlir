// Scalar control flow in functions without tensors: a loop over block
// arguments (cf.br / cf.cond_br) sums 1..n, a recursive function computes n!,
// and a branch picks the larger; the results fill tensors.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --stats=%t.json | FileCheck %s
// 1 + ... + 10 = 55 added to the input; max(55, 5! = 120) = 120.
// CHECK: 4xi32=[56 57 58 59]
// CHECK-NEXT: 2xi32=[120 120]
// CHECK-EMPTY:
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 fills=2 peak_bytes=40
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 40 (inputs 16, allocated 24)
// WALK-NEXT: func.func @main

func.func private @triangle(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^header(%c0, %c1 : i32, i32)
^header(%acc: i32, %i: i32):
  %done = arith.cmpi sgt, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %next = arith.addi %acc, %i : i32
  %inext = arith.addi %i, %c1 : i32
  cf.br ^header(%next, %inext : i32, i32)
^exit:
  return %acc : i32
}
func.func private @factorial(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %base = arith.cmpi sle, %n, %c1 : i32
  cf.cond_br %base, ^done, ^recurse
^done:
  return %c1 : i32
^recurse:
  %m = arith.subi %n, %c1 : i32
  %f = call @factorial(%m) : (i32) -> i32
  %r = arith.muli %n, %f : i32
  return %r : i32
}
func.func private @max(%a: i32, %b: i32) -> i32 {
  %gt = arith.cmpi sgt, %a, %b : i32
  cf.cond_br %gt, ^exit(%a : i32), ^exit(%b : i32)
^exit(%m: i32):
  return %m : i32
}
func.func @main(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<2xi32>) {
  %c10 = arith.constant 10 : i32
  %c5 = arith.constant 5 : i32
  %t = call @triangle(%c10) : (i32) -> i32
  %f = call @factorial(%c5) : (i32) -> i32
  %m = call @max(%t, %f) : (i32, i32) -> i32
  %e0 = tensor.empty() : tensor<4xi32>
  %fill0 = linalg.fill ins(%t : i32) outs(%e0 : tensor<4xi32>) -> tensor<4xi32>
  %r0 = arith.addi %x, %fill0 : tensor<4xi32>
  %e1 = tensor.empty() : tensor<2xi32>
  %fill1 = linalg.fill ins(%m : i32) outs(%e1 : tensor<2xi32>) -> tensor<2xi32>
  return %r0, %fill1 : tensor<4xi32>, tensor<2xi32>
}
