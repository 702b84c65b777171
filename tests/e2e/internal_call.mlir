// A tensor function called twice from another: each call gets a buffer view
// of the caller's tensor (the caller keeps owning it and frees it after the
// call) and hands back a result the caller owns and frees after its last
// use. Nothing is left allocated.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.json | FileCheck %s
// CHECK: 4xi32=[101 404 909 1616]
// CHECK-NEXT: 4xi32=[3 6 9 12]
// CHECK-EMPTY:
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=96
// The liveness walk counts each call at the callee's peak and agrees. The
// sum is written in place into the first square, which the callee handed
// over (16 bytes less than a fresh buffer).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 96 (inputs 32, allocated 80)
// WALK-NEXT: func.func @main
// The same on the threaded driver.
// RUN: ferry-run %t.fvm --function=main --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t2.json | FileCheck %s
// RUN: %python %S/check_stats.py %t2.json live_bytes_at_exit=0 peak_bytes=96

// Dynamic shapes cross calls in the buffer views. @pass_through returns its
// argument, which it copies so that the caller owns what comes back; called
// from the host it works as before.
// RUN: ferry-run %t.fvm --function=plus_itself --input=3xi32=7,8,9 --stats=%t3.json | FileCheck %s --check-prefix=DYN
// DYN: 3xi32=[14 16 18]
// RUN: %python %S/check_stats.py %t3.json live_bytes_at_exit=0 peak_bytes=24
// The walk evaluates the callee with the shapes the caller passes, and the
// returned buffer's size from the shape the callee exports.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK3
// WALK3: remark: peak live bytes: 24 (inputs 12, allocated 12)
// WALK3-NEXT: func.func @pass_through
// WALK3: remark: peak live bytes: 24 (inputs 12, allocated 12)
// WALK3-NEXT: func.func @plus_itself
// RUN: ferry-run %t.fvm --function=pass_through --input=3xi32=5,6,7 --stats=%t4.json | FileCheck %s --check-prefix=PASS
// PASS: 3xi32=[5 6 7]
// RUN: %python %S/check_stats.py %t4.json live_bytes_at_exit=0 peak_bytes=24

func.func private @square(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.muli %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func private @triple(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %x, %x : tensor<4xi32>
  %1 = arith.addi %0, %x : tensor<4xi32>
  return %1 : tensor<4xi32>
}
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = call @square(%a) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = call @square(%b) : (tensor<4xi32>) -> tensor<4xi32>
  %sum = arith.addi %0, %1 : tensor<4xi32>
  // A tensor the caller allocated, lent to a call and used again after it.
  %one = arith.constant dense<1> : tensor<4xi32>
  %twice = arith.subi %a, %one : tensor<4xi32>
  %t = call @triple(%twice) : (tensor<4xi32>) -> tensor<4xi32>
  %r = arith.subi %t, %twice : tensor<4xi32>
  %r2 = arith.addi %r, %twice : tensor<4xi32>
  %r3 = arith.addi %r2, %one : tensor<4xi32>
  %r4 = arith.addi %r3, %one : tensor<4xi32>
  %r5 = arith.addi %r4, %one : tensor<4xi32>
  return %sum, %r5 : tensor<4xi32>, tensor<4xi32>
}
func.func @pass_through(%x: tensor<?xi32>) -> tensor<?xi32> {
  return %x : tensor<?xi32>
}
func.func @plus_itself(%x: tensor<?xi32>) -> tensor<?xi32> {
  %same = call @pass_through(%x) : (tensor<?xi32>) -> tensor<?xi32>
  %r = arith.addi %same, %x : tensor<?xi32>
  return %r : tensor<?xi32>
}
