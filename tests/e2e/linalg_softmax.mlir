// linalg.softmax (decomposed into reductions and elementwise generics) along
// either dimension, static and dynamic, and math.exp on a whole tensor, on
// local-sync and local-task, against NumPy (linalg_reference.py; rtol and
// atol 1e-5: exp is MLIR's polynomial approximation). No copies (the
// decomposition's second fill and second write into the result get fresh
// allocas), nothing live at exit, the peak equals the liveness walk's.
// RUN: %python %S/linalg_reference.py softmax inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=softmax --input=@%t.in0.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=softmax --input=@%t.in0.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/linalg_reference.py softmax check %t sync task | FileCheck %s
// CHECK: softmax: 3 results match NumPy
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 dispatches=9 peak_bytes=280
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 dispatches=9 peak_bytes=280
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=6x17 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 280 (inputs 60, allocated 244)
// WALK-NEXT: func.func @softmax
// The dynamic input is 6x17 (linalg_reference.py).
// WALK: remark: peak live bytes: 1272 (inputs 408, allocated 864)
// WALK-NEXT: func.func @softmax_dynamic
// RUN: %python %S/linalg_reference.py softmax_dynamic inputs %t.dyn
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=softmax_dynamic --input=@%t.dyn.in0.npy --output=@%t.dyn.sync.out0.npy --device=__device_0=local-sync > /dev/null
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=1272
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=softmax_dynamic --input=@%t.dyn.in0.npy --output=@%t.dyn.task.out0.npy --device=__device_0=local-task > /dev/null
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=1272
// RUN: %python %S/linalg_reference.py softmax_dynamic check %t.dyn sync task | FileCheck %s --check-prefix=DYN
// DYN: softmax_dynamic: 1 results match NumPy
func.func @softmax(%x: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %e0 = tensor.empty() : tensor<3x5xf32>
  %rows = linalg.softmax dimension(1) ins(%x : tensor<3x5xf32>) outs(%e0 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %e1 = tensor.empty() : tensor<3x5xf32>
  %cols = linalg.softmax dimension(0) ins(%x : tensor<3x5xf32>) outs(%e1 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %ex = math.exp %x : tensor<3x5xf32>
  return %rows, %cols, %ex : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}

func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
