// tensor.collapse_shape and tensor.expand_shape are metadata only: around a
// transpose (the one dispatch), no copy, no allocation but the transpose's
// result, on local-sync and local-task; static and dynamic. Expected values
// are NumPy's a.reshape(6, 4).T.reshape(4, 2, 3). A dynamic expansion whose
// sizes do not multiply to the source's is refused at run time.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=static --input=2x3x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=static --input=2x3x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=dynamic --input=2x3x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 --input=index=2 --device=__device_0=local-task | FileCheck %s
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=192
// CHECK: 4x2x3xi32={{\[\[}}0 4 8][12 16 20]]{{\[\[}}1 5 9][13 17 21]]{{\[\[}}2 6 10][14 18 22]]{{\[\[}}3 7 11][15 19 23]]
// Input and result 96 bytes each: two allocations, one dispatch.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=1 peak_bytes=192
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=1 peak_bytes=192
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x3x4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 192 (inputs 96, allocated 96)
// WALK-NEXT: func.func @static
// WALK: remark: peak live bytes: 192 (inputs 96, allocated 96)
// WALK-NEXT: func.func @dynamic
// RUN: not ferry-run %t.fvm --function=dynamic --input=2x3x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 --input=index=5 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: 'tensor.expand_shape' at {{.*}}tensor_reshape.mlir:{{[0-9]+}}:{{[0-9]+}}: the output sizes of group 1 do not multiply to source dimension 1
func.func @static(%a: tensor<2x3x4xi32>) -> tensor<4x2x3xi32> {
  %f = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xi32> into tensor<6x4xi32>
  %e = tensor.empty() : tensor<4x6xi32>
  %t = linalg.transpose ins(%f : tensor<6x4xi32>) outs(%e : tensor<4x6xi32>) permutation = [1, 0]
  %x = tensor.expand_shape %t [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xi32> into tensor<4x2x3xi32>
  return %x : tensor<4x2x3xi32>
}

func.func @dynamic(%a: tensor<?x?x4xi32>, %k: index) -> tensor<4x?x3xi32> {
  %c0 = arith.constant 0 : index
  %f = tensor.collapse_shape %a [[0, 1], [2]] : tensor<?x?x4xi32> into tensor<?x4xi32>
  %n = tensor.dim %f, %c0 : tensor<?x4xi32>
  %e = tensor.empty(%n) : tensor<4x?xi32>
  %t = linalg.transpose ins(%f : tensor<?x4xi32>) outs(%e : tensor<4x?xi32>) permutation = [1, 0]
  %x = tensor.expand_shape %t [[0], [1, 2]] output_shape [4, %k, 3] : tensor<4x?xi32> into tensor<4x?x3xi32>
  return %x : tensor<4x?x3xi32>
}
