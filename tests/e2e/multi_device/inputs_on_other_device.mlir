// Function arguments used directly on a device other than the one the host
// put them on. The compiler cannot know where the host puts an argument, so
// every use on a device that may not reach it goes through
// hal.device.import_buffer; ferry-run makes its inputs exportable when a run
// has several devices. With two local devices each import is the argument
// itself (@b allocates only the result); with @b on the discrete testing
// device both inputs cross as opaque fds (two imports on @b plus the
// result). Both runs compute the same answer and free everything.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.local.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.local.json --device=a allocations=2 bytes_allocated=32 peak_bytes=32 live_bytes_at_exit=0 dispatches=0
// RUN: %python %S/../check_stats.py %t.local.json --device=b allocations=1 bytes_allocated=16 peak_bytes=16 live_bytes_at_exit=0 dispatches=1
// The liveness walk agrees per device (inputs on @a, where ferry-run puts
// them). On the discrete device @b also holds the two imports (32 bytes the
// program cannot see: whether @b reaches @a's memory is known at run time).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @a: 32 (inputs 32, allocated 0)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-discrete --stats=%t.discrete.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.discrete.json --device=a allocations=2 bytes_allocated=32 live_bytes_at_exit=0 dispatches=0
// RUN: %python %S/../check_stats.py %t.discrete.json --device=b allocations=3 bytes_allocated=48 peak_bytes=48 live_bytes_at_exit=0 dispatches=1
// HAL: %[[B:.+]] = hal.device.get @b
// HAL: %[[X:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%{{.+}} : !hal.buffer) : !hal.buffer
// HAL: %[[Y:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%{{.+}} : !hal.buffer) : !hal.buffer
// HAL: hal.device.queue.dispatch.entry<%[[B]] : !hal.device> {{.*}} bindings(%[[X]], %[[Y]], %{{.+}})
// CHECK: 4xi32=[11 22 33 44]
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
