// linalg.vecmat, linalg.dot (into a 0-d zero-filled accumulator) and
// linalg.elementwise, static and dynamic, on i32 (exact) and f32, on
// local-sync and local-task. Expected values are NumPy's: v @ m, v @ v
// (static) or v @ x (dynamic), and exp(x) within 1e-6 relative (MLIR's
// polynomial approximation). No copies; the peak equals the liveness walk's.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=static --input=4xi32=1,-2,3,4 --input=4x3xi32=1,2,3,4,5,6,7,8,9,1,0,-1 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s --check-prefix=STATIC
// RUN: ferry-run %t.fvm --function=static --input=4xi32=1,-2,3,4 --input=4x3xi32=1,2,3,4,5,6,7,8,9,1,0,-1 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s --check-prefix=STATIC
// STATIC: 3xi32=[18 16 14]
// STATIC-NEXT: i32=30
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 dispatches=2 fills=0 peak_bytes=80
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 dispatches=2 fills=0 peak_bytes=80
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=5,5x2,5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 80 (inputs 64, allocated 16)
// WALK-NEXT: func.func @static
// WALK: remark: peak live bytes: 112 (inputs 80, allocated 32)
// WALK-NEXT: func.func @dynamic
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=dynamic --input=5xf32=1,2,3,4,-1 --input=5x2xf32=1,0,0,1,1,1,2,-1,0.5,0.25 --input=5xf32=0,1,-1,2,0.5 --device=__device_0=local-sync --output=@%t.dsync0.npy --output=@%t.dsync1.npy --output=@%t.dsync2.npy > /dev/null
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=112
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=dynamic --input=5xf32=1,2,3,4,-1 --input=5x2xf32=1,0,0,1,1,1,2,-1,0.5,0.25 --input=5xf32=0,1,-1,2,0.5 --device=__device_0=local-task --output=@%t.dtask0.npy --output=@%t.dtask1.npy --output=@%t.dtask2.npy > /dev/null
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=112
// RUN: %python -c "import numpy as np; v = np.array([1, 2, 3, 4, -1], np.float32); m = np.array([1, 0, 0, 1, 1, 1, 2, -1, 0.5, 0.25], np.float32).reshape(5, 2); x = np.array([0, 1, -1, 2, 0.5], np.float32); [(np.testing.assert_array_equal(np.load('%t.d' + d + '0.npy'), v @ m), np.testing.assert_array_equal(np.load('%t.d' + d + '1.npy'), np.float32(v @ x)), np.testing.assert_allclose(np.load('%t.d' + d + '2.npy'), np.exp(x), rtol=1e-6)) for d in ('sync', 'task')]"
func.func @static(%v: tensor<4xi32>, %m: tensor<4x3xi32>) -> (tensor<3xi32>, tensor<i32>) {
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<3xi32>
  %z0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<3xi32>) -> tensor<3xi32>
  %vm = linalg.vecmat ins(%v, %m : tensor<4xi32>, tensor<4x3xi32>) outs(%z0 : tensor<3xi32>) -> tensor<3xi32>
  %e1 = tensor.empty() : tensor<i32>
  %z1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<i32>) -> tensor<i32>
  %d = linalg.dot ins(%v, %v : tensor<4xi32>, tensor<4xi32>) outs(%z1 : tensor<i32>) -> tensor<i32>
  return %vm, %d : tensor<3xi32>, tensor<i32>
}

func.func @dynamic(%v: tensor<?xf32>, %m: tensor<?x?xf32>, %x: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %m, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %vm = linalg.vecmat ins(%v, %m : tensor<?xf32>, tensor<?x?xf32>) outs(%z0 : tensor<?xf32>) -> tensor<?xf32>
  %e1 = tensor.empty() : tensor<f32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%v, %x : tensor<?xf32>, tensor<?xf32>) outs(%z1 : tensor<f32>) -> tensor<f32>
  %k = tensor.dim %x, %c0 : tensor<?xf32>
  %e2 = tensor.empty(%k) : tensor<?xf32>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%x : tensor<?xf32>) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
  return %vm, %d, %ex : tensor<?xf32>, tensor<f32>, tensor<?xf32>
}
