// A constant read on two devices: each device wraps the module's bytes
// itself (one hal.device.constant per device), so nothing is exported,
// imported or copied for it, whether the devices share memory or not.
// Before, the second device imported the constant's buffer and failed with
// "missing buffer usage bit SharingExport" wherever memory was not shared.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL-COUNT-2: hal.device.constant<
// HAL-NOT: hal.device.constant<
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --device=a=local-sync --device=b=local-sync --stats=%t.ss.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --device=a=local-sync --device=b=local-discrete --stats=%t.sd.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-isolated --stats=%t.ti.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --device=a=local-discrete --device=b=local-task --stats=%t.dt.json | FileCheck %s
// CHECK: 4xi32=[11 22 33 44]
// CHECK-NEXT: 4xi32=[10 40 90 160]
// RUN: %python %S/../check_stats.py %t.ss.json --device=a constant_bytes=16 live_bytes_at_exit=0 peak_bytes=32 --device=b constant_bytes=16 live_bytes_at_exit=0 copies=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.sd.json --device=a constant_bytes=16 live_bytes_at_exit=0 peak_bytes=32 --device=b constant_bytes=16 live_bytes_at_exit=0 copies=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.ti.json --device=a constant_bytes=16 live_bytes_at_exit=0 peak_bytes=48 --device=b constant_bytes=16 live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.dt.json --device=a constant_bytes=16 live_bytes_at_exit=0 peak_bytes=32 --device=b constant_bytes=16 live_bytes_at_exit=0 copies=0 peak_bytes=32
// Each device's peak equals its liveness walk where the devices reach each
// other's memory (ss; the constants add nothing: they are the module's
// bytes). Where they do not (a discrete or isolated device), the runtime
// adds buffers the walk leaves out as outside the program (the import of
// the input @b reads, staging copies): 16 bytes more on @b (sd, dt); with
// an isolated @b, 16 more on @a and 32 more on @b (ti).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// WALK: remark: peak live bytes on @a: 32 (inputs 16, allocated 16)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %0 = arith.addi %x, %c : tensor<4xi32>
    %1 = arith.muli %x, %c {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    return %0, %1 : tensor<4xi32>, tensor<4xi32>
  }
}
