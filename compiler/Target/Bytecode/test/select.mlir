// arith.select becomes select.i64 on integers and select.ref on hal objects;
// every arith.cmpi predicate has a cmp.i encoding.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// @pick: i64 registers c 0, a 1, b 2, result 3.
// CHECK:        [0] @pick(i64, i64, i64) -> (i64) registers=4 i64, 0 ref code=15 bytes
// CHECK-NEXT:     0000  select.i64 dst=i3 condition=i0 true=i1 false=i2
// CHECK-NEXT:     0009  return values=(i3)
func.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  %0 = arith.select %c, %a, %b : i32
  return %0 : i32
}

// @pick_fence: i64 register c 0, ref registers a 0, b 1, result 2.
// CHECK-NEXT:   [1] @pick_fence(i64, ref, ref) -> (ref) registers=1 i64, 3 ref code=15 bytes
// CHECK-NEXT:     0000  select.ref dst=r2 condition=i0 true=r0 false=r1
// CHECK-NEXT:     0009  return values=(r2)
func.func @pick_fence(%c: i1, %a: !hal.fence, %b: !hal.fence) -> !hal.fence {
  %0 = arith.select %c, %a, %b : !hal.fence
  return %0 : !hal.fence
}

// @predicates: a 0, b 1, then one result register per comparison, each with
// its own predicate.
// CHECK-NEXT:   [2] @predicates(i64, i64) -> (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) registers=12 i64, 0 ref code=123 bytes
// CHECK-NEXT:     0000  cmp.i dst=i2 predicate=eq lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0009  cmp.i dst=i3 predicate=ne lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0018  cmp.i dst=i4 predicate=slt lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0027  cmp.i dst=i5 predicate=sle lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0036  cmp.i dst=i6 predicate=sgt lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0045  cmp.i dst=i7 predicate=sge lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0054  cmp.i dst=i8 predicate=ult lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0063  cmp.i dst=i9 predicate=ule lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0072  cmp.i dst=i10 predicate=ugt lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0081  cmp.i dst=i11 predicate=uge lhs=i0 rhs=i1 bits=64
// CHECK-NEXT:     0090  return values=(i2, i3, i4, i5, i6, i7, i8, i9, i10, i11)
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
