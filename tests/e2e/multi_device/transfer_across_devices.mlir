// Two devices the topology says share nothing: no transparent access, no
// unified memory and no handle type to export and import a buffer through,
// either way. The sum is computed on @a, squared in place on @b and the
// square added to %x on @a again. ferry-compile used to refuse ("devices @a
// and @b cannot share a buffer"); now @a allocates and @b uses the buffer
// through hal.device.import_buffer, which becomes a transfer at run time:
// @b's queue operation copies @a's value in (staged through host memory)
// and writes it back after squaring it in place.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// RUN: ferry-compile %s --compile-to=hal --hal-explain-memory-properties 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
//
// @b on local-isolated really shares nothing with @a: two transfers of 16
// bytes on @b (in, then back), whose staging on @a's side is two copies on
// @a's queue. @b holds its 16-byte stand-in while the square is computed
// and a 16-byte staging buffer during each transfer.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-isolated --stats=%t.isolated.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.isolated.json --device=a dispatches=2 copies=2 bytes_copied=32 transfers=0 live_bytes_at_exit=0 --device=b dispatches=1 transfers=2 bytes_transferred=32 peak_bytes=32 live_bytes_at_exit=0
// The same with @a asynchronous: @b's transfer waits for @a's sum.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-isolated --stats=%t.task.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.task.json --device=b transfers=2 bytes_transferred=32 live_bytes_at_exit=0 peak_bytes=32 --device=a live_bytes_at_exit=0 peak_bytes=64
// And with @a isolated and @b on the host: @b copies @a's buffer out of
// @a's device memory through @a's staging heap.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-isolated --stats=%t.a.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.a.json --device=b transfers=2 bytes_transferred=32 live_bytes_at_exit=0 peak_bytes=32 --device=a live_bytes_at_exit=0 peak_bytes=64
// Where the devices do share memory after all (two local-sync devices) the
// import is the buffer itself: nothing is transferred or allocated on @b.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.local.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.local.json transfers=0 copies=0 --device=b allocations=0 peak_bytes=0 live_bytes_at_exit=0 --device=a peak_bytes=48 live_bytes_at_exit=0
//
// The liveness walk sees nothing on @b: the transfer is the runtime's, as
// for an opaque-fd import (ARCHITECTURE.md, "Peak memory"). Its 48 on @a
// (the inputs and the sum) is @a's peak where memory is shared; with a
// transfer @a also stages 16 bytes (64) and @b holds its stand-in and a
// staging buffer (32), whichever device is isolated.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
//
// HAL-DAG: %[[A:.+]] = hal.device.get @a
// HAL-DAG: %[[B:.+]] = hal.device.get @b
// HAL: hal.device.queue.alloca<%[[A]] : !hal.device>
// HAL: %[[IMPORTED:.+]] = hal.device.import_buffer<%[[B]] : !hal.device>
// HAL: hal.device.queue.dispatch.entry<%[[B]] : !hal.device> {{.*}} bindings(%[[IMPORTED]])
// EXPLAIN: memory properties by rule 'transfer'
// EXPLAIN-SAME: the link @b -> @a has no transparent_access, no unified_memory and no export/import handle type in common
// CHECK: {{^}}4xi32=[122 486 1092 1940]{{$}}
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = false, unified_memory = false, import_handle_types = [], export_handle_types = []}),
    (@b -> @a = {transparent_access = false, unified_memory = false, import_handle_types = [], export_handle_types = []})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = arith.muli %0, %0 {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    %2 = arith.addi %1, %x : tensor<4xi32>
    return %2 : tensor<4xi32>
  }
}
