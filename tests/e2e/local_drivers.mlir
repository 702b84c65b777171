// The same program on every local driver configuration: the synchronous and
// task-executor CPU devices and the discrete testing device (memory that is
// not host-visible; results come back through its host-visible heap). Outputs
// and counted operations must not depend on the driver, and neither must the
// peak of live bytes: the liveness walk's 72 (two 24-byte inputs and the
// result; the square is written in place into the sum, which it reads twice
// so the two do not fuse) on every driver.
// The discrete device stages each input through a host-visible buffer, but
// frees it before the next one, so the peak stays 72.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-discrete --stats=%t.discrete.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 dispatches=2 peak_bytes=72
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 dispatches=2 peak_bytes=72
// RUN: %python %S/check_stats.py %t.discrete.json live_bytes_at_exit=0 dispatches=2 peak_bytes=72
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 72 (inputs 48, allocated 24)
//
// The two dispatches are one execution region: one wait (the result's
// allocation), both in order on one queue, one timepoint the host awaits.
// RUN: ferry-compile %s --compile-to=stream-cmd | FileCheck %s --check-prefix=CMD
// CMD: %[[R:.+]], %[[RA:.+]] = stream.resource.alloca
// CMD: %[[E:.+]] = stream.cmd.execute await(%[[RA]]) with(
// CMD-NEXT: stream.cmd.dispatch.entry @main_dispatch_0::@main_dispatch_0
// CMD-NEXT: stream.cmd.dispatch.entry @main_dispatch_1::@main_dispatch_1
// CMD-NEXT: {{^}} } => !stream.timepoint
// CMD-NEXT: stream.timepoint.await %[[E]] => %[[R]]
// In hal the first dispatch waits for the allocation and the second for the
// first (each queue op signals a fence of its own); the host waits for the
// last alone.
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL: hal.device.queue.alloca<%{{.+}}> signal(%[[A:.+]]) type
// HAL-NOT: hal.fence.join
// HAL: hal.device.queue.dispatch.entry<%{{.+}}> wait(%[[A]]) signal(%[[D1:.+]]) entry(@main_dispatch_0::@main_dispatch_0)
// HAL: hal.device.queue.dispatch.entry<%{{.+}}> wait(%[[D1]]) signal(%[[D2:.+]]) entry(@main_dispatch_1::@main_dispatch_1)
// HAL-NEXT: hal.fence.await until([%[[D2]]])
// CHECK: 2x3xf32=[121 484 1089][1936 3025 4356]
func.func @main(%lhs: tensor<2x3xf32>, %rhs: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %sum = arith.addf %lhs, %rhs : tensor<2x3xf32>
  %product = arith.mulf %sum, %sum : tensor<2x3xf32>
  return %product : tensor<2x3xf32>
}
