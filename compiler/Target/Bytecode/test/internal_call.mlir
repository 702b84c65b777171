// A func.call of a function defined in the module becomes `call` with the
// callee's index in the function table (defined functions in order,
// declarations skipped); a declaration stays call.import.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// One import, Ext.fn(i64) -> (i64), plain calling convention.
// CHECK:      imports (1):
// CHECK-NEXT:   [0] @Ext.fn(i64) -> (i64) flags=none
// Two functions; @double adds its argument to itself.
// CHECK-NEXT: functions (2):
// CHECK-NEXT:   [0] @double(i64) -> (i64) registers=2 i64, 0 ref code=14 bytes
// CHECK-NEXT:     0000  add.i dst=i1 lhs=i0 rhs=i0 bits=64
// CHECK-NEXT:     0008  return values=(i1)
// @main calls function 0 twice, then import 0. Each value is dead once
// the next call has it, so two registers take turns.
// CHECK-NEXT:   [1] @main(i64) -> (i64) registers=2 i64, 0 ref code=51 bytes
// CHECK-NEXT:     0000  call function=@double arguments=(i0) results=(i1)
// CHECK-NEXT:     0015  call function=@double arguments=(i1) results=(i0)
// CHECK-NEXT:     0030  call.import import=@Ext.fn arguments=(i0) results=(i1)
// CHECK-NEXT:     0045  return values=(i1)
// CHECK-NEXT: executables (0):
// CHECK-NOT:  {{.}}

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
