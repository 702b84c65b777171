// --stats counts what the device allocator saw: two inputs and one output
// allocated by ferry-run and the program, all freed by exit.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.json | FileCheck %s
// CHECK: {{^}}4xi32=[11 22 33 44]{{$}}
// RUN: %python %S/check_stats.py %t.json allocations=3 deallocations=3 bytes_allocated=48 peak_bytes=48 live_bytes_at_exit=0 dispatches=1 copies=0 fills=0 bytes_copied=0
// RUN: %python %S/check_stats.py %t.json --device=__device_0 allocations=3 deallocations=3 live_bytes_at_exit=0 dispatches=1
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
