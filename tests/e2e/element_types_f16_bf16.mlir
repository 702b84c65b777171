// f16 and bf16 tensors end to end: .npy inputs and outputs ('<f2'; bf16 as
// '<u2' bits, runtime/tools/npy.h), elementwise ops computed in f32 and
// rounded once per op (bit for bit equal to NumPy's float16 and to a bf16
// rounding of float32), a fill with an f16 constant, extf/truncf between
// bf16 and f32, and an f16 matmul (partial sums rounded to f16 in Ferry's
// order: within 2e-2), math.exp on f16 and math.tanh on bf16 (f32
// approximations rounded to the type: within 2e-3 and 1e-2, about an ulp).
// On local-sync and local-task; peak equals the walk.
// RUN: %python %S/element_types_reference.py floats inputs %t
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --input=@%t.in5.npy --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --output=@%t.sync.out3.npy --output=@%t.sync.out4.npy --output=@%t.sync.out5.npy --output=@%t.sync.out6.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --input=@%t.in5.npy --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --output=@%t.task.out3.npy --output=@%t.task.out4.npy --output=@%t.task.out5.npy --output=@%t.task.out6.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/element_types_reference.py floats check %t sync task
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=1046
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=1046
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=37,37,37,37,5x8,8x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 1046 (inputs 424, allocated 622)
// WALK-NEXT: func.func @main
// WALK: remark: peak live bytes: 24 (inputs 12, allocated 12)
// WALK-NEXT: func.func @text

// Code for a CPU without F16C or any bf16 support (x86-64 baseline) gives
// the same bits: bf16 conversions are integer code in the image.
// RUN: ferry-compile %s -o %t.base.fvm --target-cpu=x86-64
// RUN: ferry-run %t.base.fvm --stats=%t.wc0.json --input=@%t.in0.npy --input=@%t.in1.npy --input=@%t.in2.npy --input=@%t.in3.npy --input=@%t.in4.npy --input=@%t.in5.npy --output=@%t.base.out0.npy --output=@%t.base.out1.npy --output=@%t.base.out2.npy --output=@%t.base.out3.npy --output=@%t.base.out4.npy --output=@%t.base.out5.npy --output=@%t.base.out6.npy > /dev/null
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=1046
// RUN: %python %S/element_types_reference.py floats check %t base

// Text input and output: decimals round once to the nearest f16 / bf16 and
// print as the shortest decimal of the float each holds.
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=text --input=3xf16=1.5,0.1,65504 --input=3xbf16=1.5,0.1,-3 | FileCheck %s --check-prefix=TEXT --match-full-lines
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=24
// TEXT:      3xf16=[3 0.19995117 inf]
// TEXT-NEXT: 3xbf16=[3 0.20019531 -6]

func.func @main(%a: tensor<?xf16>, %b: tensor<?xf16>, %c: tensor<?xbf16>,
                %d: tensor<?xbf16>, %p: tensor<?x8xf16>, %q: tensor<8x?xf16>)
    -> (tensor<?xf16>, tensor<?xbf16>, tensor<?xf32>, tensor<?x?xf16>,
        tensor<?xbf16>, tensor<?xf16>, tensor<?xf32>) {
  %s = arith.addf %a, %b : tensor<?xf16>
  %m = arith.mulf %s, %a : tensor<?xf16>
  %v = arith.divf %m, %b : tensor<?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?xf16>
  %e = tensor.empty(%n) : tensor<?xf16>
  %quarter = arith.constant 0.25 : f16
  %lo = linalg.fill ins(%quarter : f16) outs(%e : tensor<?xf16>) -> tensor<?xf16>
  %r0 = arith.maximumf %v, %lo : tensor<?xf16>
  %t = arith.addf %c, %d : tensor<?xbf16>
  %r1 = arith.mulf %t, %c : tensor<?xbf16>
  %r2 = arith.extf %r1 : tensor<?xbf16> to tensor<?xf32>
  %rows = tensor.dim %p, %c0 : tensor<?x8xf16>
  %cols = tensor.dim %q, %c1 : tensor<8x?xf16>
  %acc0 = tensor.empty(%rows, %cols) : tensor<?x?xf16>
  %zero = arith.constant 0.0 : f16
  %acc = linalg.fill ins(%zero : f16) outs(%acc0 : tensor<?x?xf16>) -> tensor<?x?xf16>
  %r3 = linalg.matmul ins(%p, %q : tensor<?x8xf16>, tensor<8x?xf16>)
                      outs(%acc : tensor<?x?xf16>) -> tensor<?x?xf16>
  %e3 = tensor.empty(%n) : tensor<?xf32>
  %three = arith.constant 3.0 : f32
  %f3 = linalg.fill ins(%three : f32) outs(%e3 : tensor<?xf32>) -> tensor<?xf32>
  %x3 = arith.mulf %r2, %f3 : tensor<?xf32>
  %r4 = arith.truncf %x3 : tensor<?xf32> to tensor<?xbf16>
  %r5 = math.exp %a : tensor<?xf16>
  %th = math.tanh %c : tensor<?xbf16>
  %r6 = arith.extf %th : tensor<?xbf16> to tensor<?xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6
      : tensor<?xf16>, tensor<?xbf16>, tensor<?xf32>, tensor<?x?xf16>,
        tensor<?xbf16>, tensor<?xf16>, tensor<?xf32>
}

func.func @text(%a: tensor<3xf16>, %b: tensor<3xbf16>) -> (tensor<3xf16>, tensor<3xbf16>) {
  %x = arith.addf %a, %a : tensor<3xf16>
  %y = arith.addf %b, %b : tensor<3xbf16>
  return %x, %y : tensor<3xf16>, tensor<3xbf16>
}
