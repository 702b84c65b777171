// Dense tensor constants (model weights): stored once in the module, read in
// place on every driver (no allocation and no copy: `constant_bytes` counts
// what the device reads, `allocations` only the program's own), copied
// before anything writes them, and copied when returned (a caller owns its
// results and may write them).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP
// DUMP: constants (2):
// DUMP-NEXT: [0] 16 bytes
// DUMP-NEXT: [1] 24 bytes
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --input=2x3xf32=1,2,3,4,5,6 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --input=2x3xf32=1,2,3,4,5,6 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=4xi32=10,20,30,40 --input=2x3xf32=1,2,3,4,5,6 --device=__device_0=local-discrete --stats=%t.discrete.json | FileCheck %s
// CHECK: 4xi32=[11 44 99 176]
// CHECK-NEXT: 2x3xf32=[0.5 0.5 -0.99999994][2 1.25 -3]
// CHECK-NEXT: 4xi32=[1 2 3 4]
// Allocations: the two inputs, the sum (written in place by the product),
// the f32 result and the returned copy of %c, at most all at once (the walk
// below agrees); copies: that one copy.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 constant_bytes=40 copies=1 allocations=5 peak_bytes=96
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 constant_bytes=40 copies=1 allocations=5 peak_bytes=96
// The discrete device also stages both inputs through host memory (2 more
// allocations and copies, each freed before the next).
// RUN: %python %S/check_stats.py %t.discrete.json live_bytes_at_exit=0 constant_bytes=40 copies=3 allocations=7 peak_bytes=96
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 96 (inputs 40, allocated 56)
//
// The constants are read where they are: no allocation, no copy for a read.
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL-COUNT-2: hal.device.constant
// HAL-NOT: hal.device.constant
func.func @main(%a: tensor<4xi32>, %x: tensor<2x3xf32>)
    -> (tensor<4xi32>, tensor<2x3xf32>, tensor<4xi32>) {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %w = arith.constant dense<[[0.5, 0.25, -0.3333333], [0.5, 0.25, -0.5]]> : tensor<2x3xf32>
  %0 = arith.addi %a, %c : tensor<4xi32>
  %1 = arith.muli %0, %c : tensor<4xi32>
  %2 = arith.mulf %x, %w : tensor<2x3xf32>
  return %1, %2, %c : tensor<4xi32>, tensor<2x3xf32>, tensor<4xi32>
}
