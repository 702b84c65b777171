// The exact bytes of a small module, checked against the layout in
// runtime/vm/bytecode_format.h: header, string table, device table, import
// table, then one function with a device.get and a two-kind return.
// RUN: ferry-compile %s -o %t.fvm
// RUN: od -A d -t x1 -v %t.fvm | FileCheck %s

// Header: magic "FERRYVM\0", version 3, reserved 0, 67 payload bytes, and
// the payload checksum.
// CHECK:      0000000 46 45 52 52 59 56 4d 00 03 00 00 00 00 00 00 00
// CHECK-NEXT: 0000016 43 00 00 00 00 00 00 00 {{[0-9a-f ]+}}{{$}}
// Strings ["dev", "f"]; devices [0]; no imports; 1 function named string 1.
// CHECK-NEXT: 0000032 02 00 00 00 03 00 00 00 64 65 76 01 00 00 00 66
// CHECK-NEXT: 0000048 01 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00
// Args (i64), results (i64, ref), 1 i64 and 1 ref register, 16 code bytes:
// device.get r0 <- device 0; return 2 x (kind, register).
// CHECK-NEXT: 0000064 01 00 00 00 01 00 00 02 00 00 01 01 00 01 00 10
// CHECK-NEXT: 0000080 00 00 00 20 00 00 00 00 00 00 10 02 00 00 00 00
// CHECK-NEXT: 0000096 01 00 00
// CHECK-NEXT: 0000099

hal.device.global @dev = #hal.device.target<"local", {}>
func.func @f(%a: index) -> (index, !hal.device) {
  %d = hal.device.get @dev : !hal.device
  return %a, %d : index, !hal.device
}
