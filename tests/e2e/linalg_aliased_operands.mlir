// A linalg op whose destination is also one of its inputs, or a value the
// host lent: each operand is its own binding, and copy-on-write copies the
// destination once so the kernel never reads what it is overwriting. Found
// by the random programs (tests/random, feature native_ops).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=same --input=2x2xf32=1,2,3,4 --stats=%t.same.json | FileCheck %s --check-prefix=SAME
// RUN: ferry-run %t.fvm --function=same --input=2x2xf32=1,2,3,4 --device=__device_0=local-task --stats=%t.same.task.json | FileCheck %s --check-prefix=SAME
// x = a + a; x + x @ x (NumPy).
// SAME: 2x2xf32=[30 44][66 96]
// RUN: %python %S/check_stats.py %t.same.json live_bytes_at_exit=0 copies=1 peak_bytes=48
// RUN: %python %S/check_stats.py %t.same.task.json live_bytes_at_exit=0 copies=1 peak_bytes=48
// RUN: ferry-run %t.fvm --function=lent --input=2x2xi64=1,2,3,4 --stats=%t.lent.json | FileCheck %s --check-prefix=LENT
// RUN: ferry-run %t.fvm --function=lent --input=2x2xi64=1,2,3,4 --device=__device_0=local-task --stats=%t.lent.task.json | FileCheck %s --check-prefix=LENT
// x = c * c; r = c + x @ x; r - c is x @ x only if c was not written.
// LENT: 2x2xi64=[38 70][156 296]
// LENT-NEXT: 2x2xi64=[37 68][153 292]
// RUN: %python %S/check_stats.py %t.lent.json live_bytes_at_exit=0 copies=1 peak_bytes=96
// RUN: %python %S/check_stats.py %t.lent.task.json live_bytes_at_exit=0 copies=1 peak_bytes=96
// Peak equals the liveness walk's: the input, the sum (or product) and the
// copy-on-write copy of the destination.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// WALK-NEXT: func.func @same
// WALK: remark: peak live bytes: 96 (inputs 32, allocated 64)
// WALK-NEXT: func.func @lent
func.func @same(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %x = arith.addf %a, %a : tensor<2x2xf32>
  %r = linalg.matmul ins(%x, %x : tensor<2x2xf32>, tensor<2x2xf32>) outs(%x : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
func.func @lent(%c: tensor<2x2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>) {
  %x = arith.muli %c, %c : tensor<2x2xi64>
  %r = linalg.matmul ins(%x, %x : tensor<2x2xi64>, tensor<2x2xi64>) outs(%c : tensor<2x2xi64>) -> tensor<2x2xi64>
  %d = arith.subi %r, %c : tensor<2x2xi64>
  return %r, %d : tensor<2x2xi64>, tensor<2x2xi64>
}
