// insert_slice with a strided slice (rows 1 and 4, columns 0 and 2) is a
// copy kernel written into the (consumed) destination in place: one copy of
// the tile's 16 bytes and no compute dispatch. A row at a dynamic offset is
// an update at its byte offset: the row is an input, so that is the other
// copy (16 bytes). A dynamic offset out of bounds fails at run time naming
// the op.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=6x4xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x2xi32=1,2,3,4 --input=4xi32=9,9,9,9 --input=index=5 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=6x4xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x2xi32=1,2,3,4 --input=4xi32=9,9,9,9 --input=index=5 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=2 bytes_copied=32 dispatches=0 allocations=3 peak_bytes=128
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=2 bytes_copied=32 dispatches=0 allocations=3 peak_bytes=128
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 128 (inputs 128, allocated 0)
// CHECK: 6x4xi32=[0 0 0 0][1 0 2 0][0 0 0 0][0 0 0 0][3 0 4 0][9 9 9 9]
// RUN: %python -c "import numpy as np; d = np.zeros((6, 4), np.int32); d[1::3, 0::2] = [[1, 2], [3, 4]]; d[5] = 9; print('6x4xi32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d))" | FileCheck %s --match-full-lines
// RUN: not ferry-run %t.fvm --input=6x4xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=2x2xi32=1,2,3,4 --input=4xi32=9,9,9,9 --input=index=6 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}'tensor.insert_slice' at {{.*}}insert_strided.mlir:[[# @LINE + 4]]:8: dimension 0 is out of bounds (offset, size and stride reach past the destination)

func.func @main(%d: tensor<6x4xi32> {iree.abi.consume}, %t: tensor<2x2xi32>, %r: tensor<4xi32>, %i: index) -> tensor<6x4xi32> {
  %a = tensor.insert_slice %t into %d[1, 0] [2, 2] [3, 2] : tensor<2x2xi32> into tensor<6x4xi32>
  %b = tensor.insert_slice %r into %a[%i, 0] [1, 4] [1, 1] : tensor<4xi32> into tensor<6x4xi32>
  return %b : tensor<6x4xi32>
}
