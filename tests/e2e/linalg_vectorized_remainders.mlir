// Vectorized kernels at sizes that leave remainders in every tiling loop,
// on local-sync and local-task, against NumPy (linalg_reference.py):
// a batch_matmul (a matmul per batch) and a matmul whose n is over 2W but
// not a multiple of it (40 and 50 columns: a narrower last register block)
// and whose k is not a multiple of the 256-deep panel (300: a 44-deep
// last panel), with 13 and 20 rows (a partial block of 8 rows). What the
// kernels become is checked by ferry_codegen_test (TileAndVectorizeTest).
// RUN: %python %S/linalg_reference.py matmul_remainders inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=matmuls --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=matmuls --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/linalg_reference.py matmul_remainders check %t sync task | FileCheck %s
// CHECK: matmul_remainders: 2 results match NumPy
// Inputs (46800 + 144000 + 5600 + 14000) bytes; results 6240 + 4000.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 dispatches=2 peak_bytes=220640
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 dispatches=2 peak_bytes=220640
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 220640 (inputs 210400, allocated 10240)
func.func @matmuls(%a: tensor<3x13x300xf32>, %b: tensor<3x300x40xf32>, %x: tensor<20x70xf32>, %y: tensor<70x50xf32>)
    -> (tensor<3x13x40xf32>, tensor<20x50xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x13x40xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  %bm = linalg.batch_matmul ins(%a, %b : tensor<3x13x300xf32>, tensor<3x300x40xf32>) outs(%z0 : tensor<3x13x40xf32>) -> tensor<3x13x40xf32>
  %e1 = tensor.empty() : tensor<20x50xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<20x50xf32>) -> tensor<20x50xf32>
  %mm = linalg.matmul ins(%x, %y : tensor<20x70xf32>, tensor<70x50xf32>) outs(%z1 : tensor<20x50xf32>) -> tensor<20x50xf32>
  return %bm, %mm : tensor<3x13x40xf32>, tensor<20x50xf32>
}
