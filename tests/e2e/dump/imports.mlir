// The import table: each external function with its register kinds and
// calling-convention flags; call.import names its import.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines
// CHECK:      imports (2):
// CHECK-NEXT:   [0] @Ext.plain(i64, i64) -> (i64) flags=none
// CHECK-NEXT:   [1] @Ext.fenced(ref, ref, ref) -> (ref) flags=coarse_fences
// CHECK-NEXT: functions (1):
// CHECK:          {{[0-9]+}}  call.import import=@Ext.plain arguments=(i0, i1) results=(i2)
// CHECK:          {{[0-9]+}}  call.import import=@Ext.fenced arguments=(r0, r1, r2) results=(r3)

func.func private @Ext.plain(index, index) -> index
func.func private @Ext.fenced(!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view attributes {iree.abi.model = "coarse-fences"}
func.func @main(%a: index, %b: index, %v: !hal.buffer_view, %w: !hal.fence, %s: !hal.fence) -> (index, !hal.buffer_view) {
  %0 = call @Ext.plain(%a, %b) : (index, index) -> index
  %1 = call @Ext.fenced(%v, %w, %s) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
  return %0, %1 : index, !hal.buffer_view
}
