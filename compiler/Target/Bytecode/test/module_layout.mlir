// The whole of a small module, checked against the layout in
// runtime/vm/bytecode_format.h through ferry-dump: header, string table,
// device table, import table, one function with a device.get and a
// two-kind return, then empty executable and constant tables. Offsets and
// sizes pin the encoding: 114 payload bytes,
// device.get takes 7 bytes (opcode, dst:u16, device:u32) and the return 9
// (opcode, count:u16, 2 x (kind:u8, register:u16)). The function has
// scalars, so the string table ends with its signature reflection (35
// bytes: the prefix, the name, a NUL and the types).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines

// CHECK:      module: format version 8, 114 payload bytes, checksum 0x{{[0-9a-f]+}}
// CHECK-NEXT: strings (3):
// CHECK-NEXT:   [0] "dev"
// CHECK-NEXT:   [1] "f"
// CHECK-NEXT:   [2] "\x00ferry.signature\x00f\x00index->index,ref"
// CHECK-NEXT: devices (1):
// CHECK-NEXT:   [0] @dev
// CHECK-NEXT: imports (0):
// CHECK-NEXT: functions (1):
// CHECK-NEXT:   [0] @f(i64) -> (i64, ref) registers=1 i64, 1 ref code=16 bytes
// CHECK-NEXT:     0000  hal.device.get dst=r0 device=@dev
// CHECK-NEXT:     0007  return values=(i0, r0)
// CHECK-NEXT: executables (0):
// CHECK-NEXT: constants (0):
// CHECK-NOT:  {{.}}

hal.device.global @dev = #hal.device.target<"local", {}>
func.func @f(%a: index) -> (index, !hal.device) {
  %d = hal.device.get @dev : !hal.device
  return %a, %d : index, !hal.device
}
