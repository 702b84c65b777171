// The same program on every local driver configuration: the synchronous and
// task-executor CPU devices and the discrete testing device (memory that is
// not host-visible; results come back through its host-visible heap). Outputs
// and counted operations must not depend on the driver.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 --device=__device_0=local-discrete --stats=%t.discrete.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 dispatches=2
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 dispatches=2
// RUN: %python %S/check_stats.py %t.discrete.json live_bytes_at_exit=0 dispatches=2
// CHECK: 2x3xf32=[110 440 990][1760 2750 3960]
func.func @main(%lhs: tensor<2x3xf32>, %rhs: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %sum = arith.addf %lhs, %rhs : tensor<2x3xf32>
  %product = arith.mulf %sum, %rhs : tensor<2x3xf32>
  return %product : tensor<2x3xf32>
}
