// Tiles that add, sub and mul make on whole tensors, inserted into rows of
// a larger result: these ops are compiled dispatches (they used to be
// built-in kernels, which see element counts, not binding ranges, so each
// tile was made on its own and copied in), so each tile is made in its rows
// of the result: no copy, no allocation but the inputs and the result.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x4xf32=1,2,3,4,5,6,7,8 --input=2x4xf32=1,1,1,1,2,2,2,2 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x4xf32=1,2,3,4,5,6,7,8 --input=2x4xf32=1,1,1,1,2,2,2,2 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=0 allocations=3 peak_bytes=160 dispatches=3
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=3 peak_bytes=160 dispatches=3
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 160 (inputs 64, allocated 96)
// RUN: %python -c "import numpy as np; a = np.arange(1, 9, dtype=np.float32).reshape(2, 4); b = np.repeat([[1], [2]], 4, axis=1); d = np.concatenate([a + a, a - b, a * a]).astype(np.int64); print('6x4xf32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d))" | FileCheck %s --match-full-lines
// CHECK: 6x4xf32=[2 4 6 8][10 12 14 16][0 1 2 3][3 4 5 6][1 4 9 16][25 36 49 64]

func.func @main(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %t0 = arith.addf %a, %a : tensor<2x4xf32>
  %t1 = arith.subf %a, %b : tensor<2x4xf32>
  %t2 = arith.mulf %a, %a : tensor<2x4xf32>
  %d0 = tensor.insert_slice %t0 into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  %d1 = tensor.insert_slice %t1 into %d0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  %d2 = tensor.insert_slice %t2 into %d1[4, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<6x4xf32>
  return %d2 : tensor<6x4xf32>
}
