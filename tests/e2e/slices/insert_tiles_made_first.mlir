// The tiles made first and inserted after (the order a front end that
// builds every tile and then assembles them gives): the ranges are
// disjoint constants, so each tile is still made in its rows of the
// result, with no copy and no allocation but the input and the result.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=128 fills=2 dispatches=1
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=128 fills=2 dispatches=1
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 128 (inputs 32, allocated 96)
// RUN: %python -c "import numpy as np; a = np.arange(1, 9, dtype=np.float32).reshape(2, 4); d = np.concatenate([np.ones((2, 4)), a, np.ones((2, 4))]).astype(np.int64); print('6x4xf32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d))" | FileCheck %s --match-full-lines
// CHECK: 6x4xf32=[1 1 1 1][1 1 1 1][1 2 3 4][5 6 7 8][1 1 1 1][1 1 1 1]

func.func @main(%a: tensor<2x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %c1 = arith.constant 1.0 : f32
  %t0e = tensor.empty() : tensor<2x4xf32>
  %t0 = linalg.fill ins(%c1 : f32) outs(%t0e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %t1e = tensor.empty() : tensor<2x4xf32>
  %t1 = linalg.copy ins(%a : tensor<2x4xf32>) outs(%t1e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %t2e = tensor.empty() : tensor<2x4xf32>
  %t2 = linalg.fill ins(%c1 : f32) outs(%t2e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %d0 = tensor.insert_slice %t0 into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  %d1 = tensor.insert_slice %t1 into %d0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  %d2 = tensor.insert_slice %t2 into %d1[4, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  return %d2 : tensor<6x4xf32>
}
