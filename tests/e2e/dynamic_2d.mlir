// Mixed static and dynamic dims; tensor.dim of a static dim folds.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=3x2xi64=1,2,3,4,5,6 --input=3x2xi64=6,5,4,3,2,1 --stats=%t.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=240
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3x2,3x2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 240 (inputs 96, allocated 144)
// CHECK: 3x2xi64=[-5 -3][-1 1][3 5]
// CHECK-NEXT: 3x2xi64=[6 10][12 12][10 6]
func.func @main(%a: tensor<?x2xi64>, %b: tensor<?x2xi64>) -> (tensor<?x2xi64>, tensor<?x2xi64>) {
  %0 = arith.subi %a, %b : tensor<?x2xi64>
  %1 = arith.muli %a, %b : tensor<?x2xi64>
  %2 = arith.muli %0, %0 : tensor<?x2xi64>
  %3 = arith.subi %2, %2 : tensor<?x2xi64>
  %4 = arith.addi %3, %0 : tensor<?x2xi64>
  return %4, %1 : tensor<?x2xi64>, tensor<?x2xi64>
}
