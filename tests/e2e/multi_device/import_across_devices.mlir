// A buffer @a allocates crosses to @b: the sum is computed on @a and squared
// in place on @b. Whether @b reaches @a's memory is left to run time
// (#hal.runtime links), so the compiler imports the buffer into @b
// (hal.device.import_buffer). On two local devices the link is transparent
// and the import is the buffer itself (nothing allocated on @b); with @b on
// the discrete testing device @a allocates it with SharingExport and @b
// imports it as an opaque fd (one allocation on @b, same memory); with @b
// on local-isolated (no handle type either way) the import is a transfer:
// @b's dispatch copies @a's sum in through host staging and writes the
// square back. All runs compute the same result.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.local.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.local.json --device=a dispatches=1 peak_bytes=48 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.local.json --device=b allocations=0 dispatches=1 peak_bytes=0 live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-discrete --stats=%t.discrete.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.discrete.json --device=a dispatches=1 peak_bytes=48 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.discrete.json --device=b allocations=1 deallocations=1 bytes_allocated=16 live_bytes_at_exit=0 dispatches=1
// With @a asynchronous the import waits for @a's alloca to run first.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-discrete --stats=%t.task.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.task.json --device=a peak_bytes=48 live_bytes_at_exit=0
// No handle type in common (once an error: "cannot export opaque fds"): two
// transfers of 16 bytes on @b, staged on @a by two copies on its queue.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-isolated --stats=%t.isolated.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.isolated.json --device=a copies=2 bytes_copied=32 transfers=0 live_bytes_at_exit=0 --device=b dispatches=1 transfers=2 bytes_transferred=32 live_bytes_at_exit=0
// The other way round, @b on its own queue thread using the isolated @a's
// buffer (@a also stages the inputs ferry-run writes).
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-isolated --device=b=local-task --stats=%t.isolated_a.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.isolated_a.json --device=a live_bytes_at_exit=0 --device=b transfers=2 bytes_transferred=32 live_bytes_at_exit=0
// Its peaks: the walk's 48 on @a plus a 16-byte staging buffer, @b's
// stand-in and staging buffer (32), as for an isolated @b below.
// RUN: %python %S/../check_stats.py %t.isolated_a.json --device=a peak_bytes=64 --device=b peak_bytes=32
//
// The liveness walk per device: the inputs and the sum on @a, nothing
// allocated for @b. That is @b's peak where @b reaches @a's memory (two
// local devices). Where it does not (the discrete device) the runtime's
// import adds the imported 16 bytes on @b while the sum lives: the walk
// cannot count it, as whether the link is transparent is only known at run
// time (#hal.runtime), so that peak is checked on its own.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
// RUN: %python %S/../check_stats.py %t.discrete.json --device=b peak_bytes=16
// RUN: %python %S/../check_stats.py %t.task.json --device=b peak_bytes=16 live_bytes_at_exit=0
// A transfer instead holds @b's 16-byte stand-in plus, during each copy, a
// 16-byte staging buffer on each device: @b peaks at 32 and @a at 16 above
// the walk.
// RUN: %python %S/../check_stats.py %t.isolated.json --device=b peak_bytes=32 --device=a peak_bytes=64
// HAL: %[[B:.+]] = hal.device.get @b
// HAL: hal.device.queue.dispatch.entry<%{{.+}} : !hal.device> {{.*}} entry(@main_dispatch_0::@main_dispatch_0)
// HAL: %[[IMPORTED:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%{{.+}} : !hal.buffer) wait(%{{.+}}) : !hal.buffer
// HAL: hal.device.queue.dispatch.entry<%[[B]] : !hal.device> {{.*}} entry(@main_dispatch_1::@main_dispatch_1) {{.*}} bindings(%[[IMPORTED]])
// CHECK: 4xi32=[121 484 1089 1936]
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = arith.muli %0, %0 {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    return %1 : tensor<4xi32>
  }
}
