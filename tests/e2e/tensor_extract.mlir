// tensor.extract is a host read of one element that waits only for the
// work producing it: returned as a scalar, or fed to scalar control flow (a
// function without tensors that branches). Indices may be static or
// dynamic; an index out of bounds at run time fails naming the op and its
// location. The read is a use: the resource is freed after it, so nothing
// is live at exit and peak_bytes equals the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=index=1 --input=index=2 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x3xi32=1,2,3,4,5,6 --input=index=1 --input=index=2 --stats=%t.task.json | FileCheck %s --match-full-lines
// On a device the host cannot map, even the host's own input (which
// ferry-run allocated there, so it names no device) is read through a
// staging copy on the device whose allocator made it.
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --device=__device_0=local-discrete --input=2x3xi32=1,2,3,4,5,6 --input=index=1 --input=index=2 | FileCheck %s --match-full-lines
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=48
// s = t + t: s[1][2] = 12 and t[0][1] = 2;
// and the sign of s[1][2] - 100 is -1.
// CHECK:      i32=12
// CHECK-NEXT: i32=2
// CHECK-NEXT: i32=-1
// CHECK-NEXT: f32=1.5
// CHECK-EMPTY:
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=48 dispatches=1 fills=1
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=48 dispatches=1 fills=1
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// s (24 bytes) is freed after the read of s[i][j], before the fill's 16.
// WALK: remark: peak live bytes: 48 (inputs 24, allocated 40)

// A dynamic index out of bounds.
// RUN: not ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=index=2 --input=index=0 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}(assert): 'tensor.extract' at {{.*}}tensor_extract.mlir:[[# @LINE + 20]]:8: index of dimension 0 is out of bounds
// RUN: not ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=index=0 --input=index=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: ferry-run: error: {{.*}}(assert): 'tensor.extract' at {{.*}}tensor_extract.mlir:[[# @LINE + 18]]:8: index of dimension 1 is out of bounds

func.func private @sign(%v: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %lt = arith.cmpi slt, %v, %c0 : i32
  cf.cond_br %lt, ^neg, ^pos
^neg:
  %m1 = arith.constant -1 : i32
  return %m1 : i32
^pos:
  %p1 = arith.constant 1 : i32
  return %p1 : i32
}
func.func @main(%t: tensor<2x3xi32>, %i: index, %j: index) -> (i32, i32, i32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : i32
  %s = arith.addi %t, %t : tensor<2x3xi32>
  %v = tensor.extract %s[%i, %j] : tensor<2x3xi32>
  %w = tensor.extract %t[%c0, %c1] : tensor<2x3xi32>
  %d = arith.subi %v, %c100 : i32
  %sign = call @sign(%d) : (i32) -> i32
  %x = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = tensor.extract %f[%c1] : tensor<4xf32>
  return %v, %w, %sign, %y : i32, i32, i32, f32
}
