// RUN: ferry-opt %s --split-input-file --ferry-lower-switch-to-branches | FileCheck %s

// Each case is one compare and conditional branch, in case order, passing
// its destination's operands; the last falls through to the default.
// CHECK-LABEL: func.func @three_cases
// CHECK-SAME: (%[[F:.+]]: i32, %[[X:.+]]: i32)
// CHECK-NOT: cf.switch
// CHECK: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[E0:.+]] = arith.cmpi eq, %[[F]], %[[C0]] : i32
// CHECK-NEXT: cf.cond_br %[[E0]], ^[[A:bb[0-9]+]], ^[[T1:bb[0-9]+]]
// CHECK-NEXT: ^[[T1]]:
// CHECK-NEXT: %[[C5:.+]] = arith.constant 5 : i32
// CHECK-NEXT: %[[E5:.+]] = arith.cmpi eq, %[[F]], %[[C5]] : i32
// CHECK-NEXT: cf.cond_br %[[E5]], ^[[B:bb[0-9]+]](%[[X]] : i32), ^[[T2:bb[0-9]+]]
// CHECK-NEXT: ^[[T2]]:
// CHECK-NEXT: %[[C7:.+]] = arith.constant -7 : i32
// CHECK-NEXT: %[[E7:.+]] = arith.cmpi eq, %[[F]], %[[C7]] : i32
// CHECK-NEXT: cf.cond_br %[[E7]], ^[[A]], ^[[D:bb[0-9]+]](%[[X]] : i32)
func.func @three_cases(%flag: i32, %x: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^d(%x : i32),
    0: ^a,
    5: ^b(%x : i32),
    -7: ^a
  ]
^a:
  %c1 = arith.constant 1 : i32
  return %c1 : i32
^b(%y: i32):
  return %y : i32
^d(%z: i32):
  %c2 = arith.constant 2 : i32
  %s = arith.addi %z, %c2 : i32
  return %s : i32
}

// -----

// A switch of no case branches to its default.
// CHECK-LABEL: func.func @no_case
// CHECK-NOT: cf.switch
// CHECK: cf.br ^[[D:bb[0-9]+]](%{{.+}} : i32)
func.func @no_case(%flag: i32, %x: i32) -> i32 {
  cf.switch %flag : i32, [
    default: ^d(%x : i32)
  ]
^d(%z: i32):
  return %z : i32
}
