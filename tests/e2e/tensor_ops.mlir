// tensor.concat, splat, pad, from_elements, bitcast and cast, and
// linalg.pooling_nhwc_min, static and dynamic, on local-sync and local-task,
// compared with NumPy exactly (each copies or selects values). pad and
// concat are dispatches writing into their destination (a fill of the
// padding value first for pad; a concat of rows, at dynamic offsets too,
// updates of byte ranges), from_elements of scalars a fill per element
// and one dispatch, bitcast and cast metadata (no copy). Peak equals the
// walk's at two sizes.
// RUN: %python %S/tensor_ops_reference.py inputs %t 4
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.a.npy --input=@%t.b.npy --input=@%t.img.npy --input=@%t.m.npy --input=f32=2.5 --input=i32=-4 --output=@%t.sync.out0.npy --output=@%t.sync.out1.npy --output=@%t.sync.out2.npy --output=@%t.sync.out3.npy --output=@%t.sync.out4.npy --output=@%t.sync.out5.npy --output=@%t.sync.out6.npy --output=@%t.sync.out7.npy --output=@%t.sync.out8.npy --output=@%t.sync.out9.npy --device=__device_0=local-sync --stats=%t.sync.json > /dev/null
// RUN: ferry-run %t.fvm --input=@%t.a.npy --input=@%t.b.npy --input=@%t.img.npy --input=@%t.m.npy --input=f32=2.5 --input=i32=-4 --output=@%t.task.out0.npy --output=@%t.task.out1.npy --output=@%t.task.out2.npy --output=@%t.task.out3.npy --output=@%t.task.out4.npy --output=@%t.task.out5.npy --output=@%t.task.out6.npy --output=@%t.task.out7.npy --output=@%t.task.out8.npy --output=@%t.task.out9.npy --device=__device_0=local-task --stats=%t.task.json > /dev/null
// RUN: %python %S/tensor_ops_reference.py check %t sync task
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=1276
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=1276
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x3,2x3,1x7x9x2,4x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK4
// WALK4: remark: peak live bytes: 1276 (

// A larger size (work split over several workgroups on local-task).
// RUN: %python %S/tensor_ops_reference.py inputs %t.big 3000
// RUN: ferry-run %t.fvm --input=@%t.big.a.npy --input=@%t.big.b.npy --input=@%t.big.img.npy --input=@%t.big.m.npy --input=f32=2.5 --input=i32=-4 --output=@%t.big.task.out0.npy --output=@%t.big.task.out1.npy --output=@%t.big.task.out2.npy --output=@%t.big.task.out3.npy --output=@%t.big.task.out4.npy --output=@%t.big.task.out5.npy --output=@%t.big.task.out6.npy --output=@%t.big.task.out7.npy --output=@%t.big.task.out8.npy --output=@%t.big.task.out9.npy --device=__device_0=local-task --stats=%t.big.json > /dev/null
// RUN: %python %S/tensor_ops_reference.py check %t.big task
// RUN: %python %S/check_stats.py %t.big.json live_bytes_at_exit=0 peak_bytes=384764
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3000x3,2x3,1x7x9x2,3000x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK3000
// WALK3000: remark: peak live bytes: 384764 (

// tensor.cast to a static shape checks the dimension at run time, naming
// the op; to a dynamic one it is free.
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=cast --input=2x3xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=CAST
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CASTWALK
// CASTWALK: remark: peak live bytes: 48 (inputs 24, allocated 24)
// CASTWALK-NEXT: func.func @cast
// CAST: 2x3xf32=[2 4 6][8 10 12]
// RUN: not ferry-run %t.fvm --function=cast --input=3x3xf32=1,2,3,4,5,6,7,8,9 2>&1 | FileCheck %s --check-prefix=CASTBAD
// CASTBAD: ferry-run: error: {{.*}}'tensor.cast' at {{.*}}tensor_ops.mlir:{{[0-9]+}}:8: dimension 0 of the source is not 2

func.func @main(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>, %img: tensor<1x?x9x2xf32>,
                %m: tensor<?x3xi32>, %s: f32, %i: i32)
    -> (tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x6xf32>, tensor<?x3xi32>,
        tensor<3xi32>, tensor<2x2xf32>, tensor<4xi32>, tensor<?x3xi32>,
        tensor<1x?x4x2xf32>, tensor<?x6xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x3xf32>
  %cat = tensor.concat dim(0) %b, %a, %b : (tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %sp = tensor.splat %s[%n] : tensor<2x?xf32>
  %seven = arith.constant 7.0 : f32
  %p = tensor.pad %a low[1, 2] high[%n, 1] {
  ^bb0(%x: index, %y: index):
    tensor.yield %seven : f32
  } : tensor<?x3xf32> to tensor<?x6xf32>
  %minus1 = arith.constant -1 : i32
  %pm = tensor.pad %m low[0, 0] high[2, 0] {
  ^bb0(%x: index, %y: index):
    tensor.yield %minus1 : i32
  } : tensor<?x3xi32> to tensor<?x3xi32>
  %c5 = arith.constant 5 : i32
  %fe = tensor.from_elements %i, %c5, %i : tensor<3xi32>
  %fe2 = tensor.from_elements %s, %seven, %seven, %s : tensor<2x2xf32>
  %k = arith.constant 3 : i32
  %fc = tensor.from_elements %k, %k, %c5, %k : tensor<4xi32>
  %bc = tensor.bitcast %a : tensor<?x3xf32> to tensor<?x3xi32>
  %c1 = arith.constant 1 : index
  %h = tensor.dim %img, %c1 : tensor<1x?x9x2xf32>
  %c2 = arith.constant 2 : index
  %hm = arith.subi %h, %c2 : index
  %oh = arith.divui %hm, %c2 : index
  %oh1 = arith.addi %oh, %c1 : index
  %win = tensor.empty() : tensor<2x3xf32>
  %e = tensor.empty(%oh1) : tensor<1x?x4x2xf32>
  %inf = arith.constant 0x7F800000 : f32
  %acc = linalg.fill ins(%inf : f32) outs(%e : tensor<1x?x4x2xf32>) -> tensor<1x?x4x2xf32>
  %pool = linalg.pooling_nhwc_min {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%img, %win : tensor<1x?x9x2xf32>, tensor<2x3xf32>) outs(%acc : tensor<1x?x4x2xf32>) -> tensor<1x?x4x2xf32>
  %cat1 = tensor.concat dim(1) %a, %a : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x6xf32>
  return %cat, %sp, %p, %pm, %fe, %fe2, %fc, %bc, %pool, %cat1
      : tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x6xf32>, tensor<?x3xi32>,
        tensor<3xi32>, tensor<2x2xf32>, tensor<4xi32>, tensor<?x3xi32>,
        tensor<1x?x4x2xf32>, tensor<?x6xf32>
}

func.func @cast(%a: tensor<?x3xf32>) -> tensor<?x?xf32> {
  %s = tensor.cast %a : tensor<?x3xf32> to tensor<2x3xf32>
  %t = arith.addf %s, %s : tensor<2x3xf32>
  %d = tensor.cast %t : tensor<2x3xf32> to tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// Static shapes, on the new element types too.
// RUN: ferry-run %t.fvm --function=static --input=2x3xf16=1,2,3,4,5,6 --input=i1=1 --stats=%t.static.json | FileCheck %s --check-prefix=STATIC --match-full-lines
// STATIC:      4x5xf16=[0 0 0 0 0][1 2 3 0 0][4 5 6 0 0][0 0 0 0 0]
// STATIC-NEXT: 4x3xf16=[1 2 3][4 5 6][1 2 3][4 5 6]
// STATIC-NEXT: 2x2xi1=[1 1][1 1]
// STATIC-NEXT: 2xbf16=[1.5 1]
// RUN: %python %S/check_stats.py %t.static.json live_bytes_at_exit=0 peak_bytes=84
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATICWALK
// STATICWALK: remark: peak live bytes: 84 (inputs 12, allocated 72)
func.func @static(%a: tensor<2x3xf16>, %flag: i1)
    -> (tensor<4x5xf16>, tensor<4x3xf16>, tensor<2x2xi1>, tensor<2xbf16>) {
  %z = arith.constant 0.0 : f16
  %p = tensor.pad %a low[1, 0] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f16
  } : tensor<2x3xf16> to tensor<4x5xf16>
  %c = tensor.concat dim(0) %a, %a : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<4x3xf16>
  %s = tensor.splat %flag : tensor<2x2xi1>
  %x = arith.constant 1.5 : bf16
  %y = arith.constant 1.0 : bf16
  %fe = tensor.from_elements %x, %y : tensor<2xbf16>
  return %p, %c, %s, %fe : tensor<4x5xf16>, tensor<4x3xf16>, tensor<2x2xi1>, tensor<2xbf16>
}
