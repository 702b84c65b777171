// Vectorized kernels at sizes that leave remainders in every tiling loop,
// on local-sync and local-task, against NumPy (linalg_reference.py):
// a batch_matmul (a matmul per batch) and a matmul whose n is over 2W but
// not a multiple of it (40 and 50 columns: a narrower last register block)
// and whose k is not a multiple of the 256-deep panel (300: a 44-deep
// last panel), with 13 and 20 rows (a partial block of 8 rows); then the
// same of dynamic shape, convolutions (NHWC and NCHW) and pooling, matvec / vecmat / dot, and an i1 result. What
// the kernels become is checked by ferry_codegen_test (TileAndVectorizeTest).
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

// A matmul of dynamic shape: its last column panel (50 = 32 + 18 on
// AVX-512) and its last rows (21 = 2 x 8 + 5) are masked register blocks.
// RUN: %python %S/linalg_reference.py matmul_dynamic inputs %t.d
// RUN: ferry-run %t.fvm --function=matmul_dynamic --input=@%t.d.in0.npy --input=@%t.d.in1.npy --output=@%t.d.sync.out0.npy --device=__device_0=local-sync > /dev/null
// RUN: ferry-run %t.fvm --function=matmul_dynamic --input=@%t.d.in0.npy --input=@%t.d.in1.npy --output=@%t.d.task.out0.npy --device=__device_0=local-task > /dev/null
// RUN: %python %S/linalg_reference.py matmul_dynamic check %t.d sync task | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: matmul_dynamic: 1 results match NumPy
func.func @matmul_dynamic(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %y, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Convolutions and pooling vectorized along their channels (F of
// conv_2d_nhwc_hwcf: 40; C of the depthwise convolution and pooling: 48,
// over 2W but not a multiple of it) in blocks of 8 output columns (12, 17,
// 20 and 10 of them: partial blocks), strided and dilated.
// RUN: %python %S/linalg_reference.py window_remainders inputs %t.w
// RUN: ferry-run %t.fvm --function=windows --input=@%t.w.in0.npy --input=@%t.w.in1.npy --input=@%t.w.in2.npy --input=@%t.w.in3.npy --output=@%t.w.sync.out0.npy --output=@%t.w.sync.out1.npy --output=@%t.w.sync.out2.npy --output=@%t.w.sync.out3.npy --device=__device_0=local-sync --stats=%t.w.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=windows --input=@%t.w.in0.npy --input=@%t.w.in1.npy --input=@%t.w.in2.npy --input=@%t.w.in3.npy --output=@%t.w.task.out0.npy --output=@%t.w.task.out1.npy --output=@%t.w.task.out2.npy --output=@%t.w.task.out3.npy --device=__device_0=local-task --stats=%t.w.task.json > /dev/null
// RUN: %python %S/linalg_reference.py window_remainders check %t.w sync task | FileCheck %s --check-prefix=WINDOWS
// WINDOWS: window_remainders: 4 results match NumPy
// RUN: %python %S/check_stats.py %t.w.sync.json live_bytes_at_exit=0 copies=0 dispatches=4 peak_bytes=140024
// RUN: %python %S/check_stats.py %t.w.task.json live_bytes_at_exit=0 copies=0 dispatches=4 peak_bytes=140024
// The walk of this function (the RUN line of @matmuls prints every
// function's):
// WALK: remark: peak live bytes: 140024 (inputs 57848, allocated 82176)
func.func @windows(%x: tensor<2x11x25x5xf32>, %f: tensor<3x2x5x40xf32>, %img: tensor<1x10x21x48xf32>, %dw: tensor<3x3x48xf32>)
    -> (tensor<2x7x12x40xf32>, tensor<1x4x17x48xf32>, tensor<1x9x20x48xf32>, tensor<1x4x10x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e0 = tensor.empty() : tensor<2x7x12x40xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x7x12x40xf32>) -> tensor<2x7x12x40xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %f : tensor<2x11x25x5xf32>, tensor<3x2x5x40xf32>) outs(%z0 : tensor<2x7x12x40xf32>) -> tensor<2x7x12x40xf32>
  %e1 = tensor.empty() : tensor<1x4x17x48xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x17x48xf32>) -> tensor<1x4x17x48xf32>
  %depth = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>}
      ins(%img, %dw : tensor<1x10x21x48xf32>, tensor<3x3x48xf32>) outs(%z1 : tensor<1x4x17x48xf32>) -> tensor<1x4x17x48xf32>
  %w2 = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x9x20x48xf32>
  %l2 = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<1x9x20x48xf32>) -> tensor<1x9x20x48xf32>
  %max = linalg.pooling_nhwc_max {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %w2 : tensor<1x10x21x48xf32>, tensor<2x2xf32>) outs(%l2 : tensor<1x9x20x48xf32>) -> tensor<1x9x20x48xf32>
  %w3 = tensor.empty() : tensor<3x3xf32>
  %e3 = tensor.empty() : tensor<1x4x10x48xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x10x48xf32>) -> tensor<1x4x10x48xf32>
  %sum = linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %w3 : tensor<1x10x21x48xf32>, tensor<3x3xf32>) outs(%z3 : tensor<1x4x10x48xf32>) -> tensor<1x4x10x48xf32>
  return %conv, %depth, %max, %sum : tensor<2x7x12x40xf32>, tensor<1x4x17x48xf32>, tensor<1x9x20x48xf32>, tensor<1x4x10x48xf32>
}

// conv_2d_nchw_fchw vectorized along its output columns (37 = 32 + 5 on
// AVX-512) in blocks of 8 filters (12 = 8 + 4), strided and dilated.
// RUN: %python %S/linalg_reference.py nchw_remainders inputs %t.n
// RUN: ferry-run %t.fvm --function=nchw --input=@%t.n.in0.npy --input=@%t.n.in1.npy --output=@%t.n.sync.out0.npy --device=__device_0=local-sync > /dev/null
// RUN: ferry-run %t.fvm --function=nchw --input=@%t.n.in0.npy --input=@%t.n.in1.npy --output=@%t.n.task.out0.npy --device=__device_0=local-task > /dev/null
// RUN: %python %S/linalg_reference.py nchw_remainders check %t.n sync task | FileCheck %s --check-prefix=NCHW
// NCHW: nchw_remainders: 1 results match NumPy
func.func @nchw(%x: tensor<2x3x12x75xf32>, %f: tensor<12x3x3x3xf32>) -> tensor<2x12x8x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x12x8x37xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x12x8x37xf32>) -> tensor<2x12x8x37xf32>
  %r = linalg.conv_2d_nchw_fchw {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %f : tensor<2x3x12x75xf32>, tensor<12x3x3x3xf32>) outs(%z : tensor<2x12x8x37xf32>) -> tensor<2x12x8x37xf32>
  return %r : tensor<2x12x8x37xf32>
}

// matvec and dot vectorized along k (300 and 1000: a narrower last tile),
// vecmat along n (70: the second workgroup's 6 columns a masked block).
// RUN: %python %S/linalg_reference.py vector_products inputs %t.v
// RUN: ferry-run %t.fvm --function=products --input=@%t.v.in0.npy --input=@%t.v.in1.npy --input=@%t.v.in2.npy --input=@%t.v.in3.npy --input=@%t.v.in4.npy --output=@%t.v.sync.out0.npy --output=@%t.v.sync.out1.npy --output=@%t.v.sync.out2.npy --device=__device_0=local-sync --stats=%t.v.sync.json > /dev/null
// RUN: ferry-run %t.fvm --function=products --input=@%t.v.in0.npy --input=@%t.v.in1.npy --input=@%t.v.in2.npy --input=@%t.v.in3.npy --input=@%t.v.in4.npy --output=@%t.v.task.out0.npy --output=@%t.v.task.out1.npy --output=@%t.v.task.out2.npy --device=__device_0=local-task --stats=%t.v.task.json > /dev/null
// RUN: %python %S/linalg_reference.py vector_products check %t.v sync task | FileCheck %s --check-prefix=PRODUCTS
// PRODUCTS: vector_products: 3 results match NumPy
// RUN: %python %S/check_stats.py %t.v.sync.json live_bytes_at_exit=0 copies=0 dispatches=3 peak_bytes=138032
// RUN: %python %S/check_stats.py %t.v.task.json live_bytes_at_exit=0 copies=0 dispatches=3 peak_bytes=138032
// WALK: remark: peak live bytes: 138032 (inputs 137600, allocated 432)
func.func @products(%a: tensor<37x300xf32>, %x: tensor<300xf32>, %b: tensor<300x70xf32>, %u: tensor<1000xf32>, %v: tensor<1000xf32>)
    -> (tensor<37xf32>, tensor<70xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37xf32>) -> tensor<37xf32>
  %mv = linalg.matvec ins(%a, %x : tensor<37x300xf32>, tensor<300xf32>) outs(%z0 : tensor<37xf32>) -> tensor<37xf32>
  %e1 = tensor.empty() : tensor<70xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<70xf32>) -> tensor<70xf32>
  %vm = linalg.vecmat ins(%x, %b : tensor<300xf32>, tensor<300x70xf32>) outs(%z1 : tensor<70xf32>) -> tensor<70xf32>
  %e2 = tensor.empty() : tensor<f32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%u, %v : tensor<1000xf32>, tensor<1000xf32>) outs(%z2 : tensor<f32>) -> tensor<f32>
  return %mv, %vm, %d : tensor<37xf32>, tensor<70xf32>, tensor<f32>
}

// An elementwise op on i1 memory stays scalar: vectors of i1 are stored as
// packed bits, a buffer of i1 holds a byte per element (600 elements, over
// 4W: vectorized, the result was wrong in 239 of them).
// RUN: %python %S/linalg_reference.py compare_i1 inputs %t.b
// RUN: ferry-run %t.fvm --function=compare --input=@%t.b.in0.npy --input=@%t.b.in1.npy --output=@%t.b.sync.out0.npy --device=__device_0=local-sync > /dev/null
// RUN: ferry-run %t.fvm --function=compare --input=@%t.b.in0.npy --input=@%t.b.in1.npy --output=@%t.b.task.out0.npy --device=__device_0=local-task > /dev/null
// RUN: %python %S/linalg_reference.py compare_i1 check %t.b sync task | FileCheck %s --check-prefix=I1
// I1: compare_i1: 1 results match NumPy
// WALK: remark: peak live bytes: 5400 (inputs 4800, allocated 600)
func.func @compare(%a: tensor<600xf32>, %b: tensor<600xf32>) -> tensor<600xi1> {
  %m = arith.cmpf olt, %a, %b : tensor<600xf32>
  return %m : tensor<600xi1>
}
