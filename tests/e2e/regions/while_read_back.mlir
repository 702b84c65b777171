// A while loop whose condition is a scalar read back from the tensor it
// carries: x doubles until its first element reaches the limit; the trip
// count comes back as a scalar result. The input is the host's, so the loop
// gets one copy of it to write in place; nothing is live at exit and
// peak_bytes equals the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=i32=100 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=i32=100 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=4xi32=1,2,3,4 --input=i32=0 | FileCheck %s --check-prefix=NONE --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=32
// CHECK: 4xi32=[128 256 384 512]
// CHECK-NEXT: i32=7
// NONE: 4xi32=[1 2 3 4]
// NONE-NEXT: i32=0
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=1 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=1 peak_bytes=32
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
func.func @main(%x: tensor<4xi32>, %limit: i32) -> (tensor<4xi32>, i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%v = %x, %k = %zero) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
    %first = tensor.extract %v[%c0] : tensor<4xi32>
    %go = arith.cmpi slt, %first, %limit : i32
    scf.condition(%go) %v, %k : tensor<4xi32>, i32
  } do {
  ^bb0(%v: tensor<4xi32>, %k: i32):
    %d = arith.addi %v, %v : tensor<4xi32>
    %k1 = arith.addi %k, %one : i32
    scf.yield %d, %k1 : tensor<4xi32>, i32
  }
  return %r#0, %r#1 : tensor<4xi32>, i32
}
