// The other linalg ops dispatch formation takes, on i32 (exact): batch_matmul,
// matvec, transpose, broadcast and a two-input map, on local-sync and
// local-task. The expected values are NumPy's (a @ b, m @ v, m.T,
// broadcast_to(v, (3, 4)), m * v - m). Peak equals the liveness walk's.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=ops --input=2x3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12 --input=2x4x5xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40 --input=3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=4xi32=1,-1,2,-2 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=ops --input=2x3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12 --input=2x4x5xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40 --input=3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=4xi32=1,-1,2,-2 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=596 copies=0 dispatches=5
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=596 copies=0 dispatches=5
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 596 (inputs 320, allocated 276)
// CHECK: 2x3x5xi32={{\[\[}}110 120 130 140 150][246 272 298 324 350][382 424 466 508 550]]{{\[\[}}-310 -320 -330 -340 -350][-766 -792 -818 -844 -870][-1222 -1264 -1306 -1348 -1390]]
// CHECK-NEXT: 3xi32=[-3 -3 -3]
// CHECK-NEXT: 4x3xi32=[1 5 9][2 6 10][3 7 11][4 8 12]
// CHECK-NEXT: 3x4xi32=[1 -1 2 -2][1 -1 2 -2][1 -1 2 -2]
// CHECK-NEXT: 3x4xi32=[0 -4 3 -12][0 -12 7 -24][0 -20 11 -36]
func.func @ops(%a: tensor<2x3x4xi32>, %b: tensor<2x4x5xi32>, %m: tensor<3x4xi32>, %v: tensor<4xi32>) -> (tensor<2x3x5xi32>, tensor<3xi32>, tensor<4x3xi32>, tensor<3x4xi32>, tensor<3x4xi32>) {
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<2x3x5xi32>
  %z0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  %bm = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xi32>, tensor<2x4x5xi32>) outs(%z0 : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  %e1 = tensor.empty() : tensor<3xi32>
  %z1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<3xi32>) -> tensor<3xi32>
  %mv = linalg.matvec ins(%m, %v : tensor<3x4xi32>, tensor<4xi32>) outs(%z1 : tensor<3xi32>) -> tensor<3xi32>
  %e2 = tensor.empty() : tensor<4x3xi32>
  %t = linalg.transpose ins(%m : tensor<3x4xi32>) outs(%e2 : tensor<4x3xi32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<3x4xi32>
  %bc = linalg.broadcast ins(%v : tensor<4xi32>) outs(%e3 : tensor<3x4xi32>) dimensions = [0]
  %e4 = tensor.empty() : tensor<3x4xi32>
  %mp = linalg.map ins(%m, %bc : tensor<3x4xi32>, tensor<3x4xi32>) outs(%e4 : tensor<3x4xi32>)
    (%x: i32, %y: i32, %o: i32) {
      %p = arith.muli %x, %y : i32
      %q = arith.subi %p, %x : i32
      linalg.yield %q : i32
    }
  return %bm, %mv, %t, %bc, %mp : tensor<2x3x5xi32>, tensor<3xi32>, tensor<4x3xi32>, tensor<3x4xi32>, tensor<3x4xi32>
}
