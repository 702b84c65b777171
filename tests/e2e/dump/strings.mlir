// The string table, in first-use order: device names, function names, then
// messages, then the signature reflection of functions with scalars. Quotes
// and control characters in a string are escaped, so one entry is always one
// line.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines
// CHECK:      strings (4):
// CHECK-NEXT:   [0] "gpu"
// CHECK-NEXT:   [1] "check"
// CHECK-NEXT:   [2] "a must be below \"b\"\x09(tab)"
// CHECK-NEXT:   [3] "\x00ferry.signature\x00check\x00index,index->index"
// CHECK-NEXT: devices (1):
// The assert names its message by content, not by index.
// CHECK:      {{[0-9]+}}  assert condition=i{{[0-9]+}} message="a must be below \"b\"\x09(tab)"

hal.device.global @gpu = #hal.device.target<"local", {}>
func.func @check(%a: index, %b: index) -> index {
  %lt = arith.cmpi ult, %a, %b : index
  cf.assert %lt, "a must be below \"b\"	(tab)"
  %d = arith.subi %b, %a : index
  return %d : index
}
