// arith.select becomes select.i64 on integers and select.ref on hal objects;
// every arith.cmpi predicate has a cmp.i64 encoding.
// RUN: ferry-compile %s -o %t.fvm
// RUN: od -A n -t x1 -v %t.fvm | tr -d '\n' | tr -s ' ' | FileCheck %s

// @pick: i64 registers c 0, a 1, b 2, result 3.
// CHECK: 09 03 00 00 00 01 00 02 00 10 01 00 00 03 00
func.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  %0 = arith.select %c, %a, %b : i32
  return %0 : i32
}

// @pick_fence: i64 register c 0, ref registers a 0, b 1, result 2.
// CHECK: 0a 02 00 00 00 00 00 01 00 10 01 00 01 02 00
func.func @pick_fence(%c: i1, %a: !hal.fence, %b: !hal.fence) -> !hal.fence {
  %0 = arith.select %c, %a, %b : !hal.fence
  return %0 : !hal.fence
}

// @predicates: a 0, b 1, then one result register per comparison with the
// predicate numbers of bytecode::CmpPredicate (eq 0 ... uge 9).
// CHECK: 08 02 00 00 00 00 01 00
// CHECK-SAME: 08 03 00 01 00 00 01 00
// CHECK-SAME: 08 04 00 02 00 00 01 00
// CHECK-SAME: 08 05 00 03 00 00 01 00
// CHECK-SAME: 08 06 00 04 00 00 01 00
// CHECK-SAME: 08 07 00 05 00 00 01 00
// CHECK-SAME: 08 08 00 06 00 00 01 00
// CHECK-SAME: 08 09 00 07 00 00 01 00
// CHECK-SAME: 08 0a 00 08 00 00 01 00
// CHECK-SAME: 08 0b 00 09 00 00 01 00
func.func @predicates(%a: i64, %b: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpi eq, %a, %b : i64
  %1 = arith.cmpi ne, %a, %b : i64
  %2 = arith.cmpi slt, %a, %b : i64
  %3 = arith.cmpi sle, %a, %b : i64
  %4 = arith.cmpi sgt, %a, %b : i64
  %5 = arith.cmpi sge, %a, %b : i64
  %6 = arith.cmpi ult, %a, %b : i64
  %7 = arith.cmpi ule, %a, %b : i64
  %8 = arith.cmpi ugt, %a, %b : i64
  %9 = arith.cmpi uge, %a, %b : i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}
