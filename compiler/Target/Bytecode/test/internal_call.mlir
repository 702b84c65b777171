// A func.call of a function defined in the module becomes `call` with the
// callee's index in the function table (defined functions in order,
// declarations skipped); a declaration stays call.import.
// RUN: ferry-compile %s -o %t.fvm
// RUN: od -A n -t x1 -v %t.fvm | tr -d '\n' | tr -s ' ' | FileCheck %s

// One import, Ext.fn(i64) -> (i64), plain calling convention.
// CHECK: 01 00 00 00 {{[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ [0-9a-f]+}} 01 00 00 01 00 00 00 00 00 00
// Two functions.
// CHECK-SAME: 02 00 00 00
// @double: add.i64 r1 = r0 + r0; return r1.
// CHECK-SAME: 02 01 00 00 00 00 00 10 01 00 00 01 00
// @main: call function 0 (r0) -> (r1); call function 0 (r1) -> (r2);
// call.import 0 (r2) -> (r3).
// CHECK-SAME: 51 00 00 00 00 01 00 00 00 00 01 00 00 01 00
// CHECK-SAME: 51 00 00 00 00 01 00 00 01 00 01 00 00 02 00
// CHECK-SAME: 50 00 00 00 00 01 00 00 02 00 01 00 00 03 00

func.func private @Ext.fn(index) -> index
func.func private @double(%x: index) -> index {
  %0 = arith.addi %x, %x : index
  return %0 : index
}
func.func @main(%a: index) -> index {
  %0 = call @double(%a) : (index) -> index
  %1 = call @double(%0) : (index) -> index
  %2 = call @Ext.fn(%1) : (index) -> index
  return %2 : index
}
