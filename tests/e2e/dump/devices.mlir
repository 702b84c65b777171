// The device table: one entry per hal.device.global, in declaration order,
// named as --device=NAME=DRIVER binds them; hal.device.get names its device.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --match-full-lines
// CHECK:      devices (2):
// CHECK-NEXT:   [0] @gpu_a
// CHECK-NEXT:   [1] @gpu_b
// CHECK-NEXT: imports (0):
// CHECK:          0000  hal.device.get dst=r0 device=@gpu_b
// CHECK-NEXT:     0007  hal.device.get dst=r1 device=@gpu_a

hal.device.global @gpu_a = #hal.device.target<"local", {}>
hal.device.global @gpu_b = #hal.device.target<"local", {}>
func.func @devices() -> (!hal.device, !hal.device) {
  %b = hal.device.get @gpu_b : !hal.device
  %a = hal.device.get @gpu_a : !hal.device
  return %b, %a : !hal.device, !hal.device
}
