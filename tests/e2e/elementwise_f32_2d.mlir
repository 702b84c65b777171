// A 2-D f32 chain prints in the nested format. a*b + a is one fused
// dispatch into a new buffer; the square, which reads it twice, is a second
// dispatch written into it as it dies: one buffer between them (plus the
// two inputs ferry-run uploads), and everything is freed by exit.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 72 (inputs 48, allocated 24)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=0.5,0.5,0.5,2,2,2 --stats=%t.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.json allocations=3 deallocations=3 live_bytes_at_exit=0 dispatches=2 bytes_allocated=72 peak_bytes=72
// (a*b + a) * (a*b + a) for a = [[1 2 3][4 5 6]], b = [[.5 .5 .5][2 2 2]]
// CHECK: 2x3xf32=[2.25 9 20.25][144 225 324]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = arith.mulf %a, %b : tensor<2x3xf32>
  %1 = arith.addf %0, %a : tensor<2x3xf32>
  %2 = arith.mulf %1, %1 : tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
