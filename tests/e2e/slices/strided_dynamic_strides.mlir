// Strided slices whose strides, or offsets on a tensor with a dynamic dim
// after the first, are computed at run time: a copy kernel whose body
// computes the positions from the offsets and strides, passed as 0-d
// inputs (parameter bindings, left out of the copy's bytes). An extract
// gathers the source at offset + i * stride into a fresh tile: one copy,
// the tile's bytes, no dispatch; an insert writes the destination in
// place, taking the tile's element where the position is on the slice.
// Both drivers against NumPy; an out-of-bounds and a negative dynamic
// stride fail at run time naming the op.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(10, dtype=np.float32)); np.save('%t.y.npy', np.arange(7 * 6, dtype=np.float32).reshape(7, 6))"
// RUN: ferry-compile %s -o %t.fvm
// Each a copy entry whose 0-d inputs (offsets, strides; an insert's sizes
// too) are parameters, then the tile or destination, then the tensor read.
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP
// DUMP: entry [0] @every_dispatch_0 kind=copy push_constants=0 bindings=(parameter, parameter, write, read)
// DUMP: entry [2] @spread_dispatch_0 kind=copy push_constants=0 bindings=(parameter, parameter, read_write, read)
// DUMP: entry [3] @scatter_dispatch_0 kind=copy push_constants=4 bindings=(parameter, parameter, parameter, parameter, parameter, parameter, read_write, read)
//
// Every third element of x from 1: x[1:10:3].
// RUN: ferry-run %t.fvm --function=every --input=@%t.x.npy --input=index=1 --input=index=3 --output=@%t.every.sync.npy --stats=%t.every.sync.json
// RUN: ferry-run %t.fvm --function=every --device=__device_0=local-task --input=@%t.x.npy --input=index=1 --input=index=3 --output=@%t.every.task.npy --stats=%t.every.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); [np.testing.assert_array_equal(np.load('%t.every.' + d + '.npy'), x[1:10:3]) for d in ('sync', 'task')]"
// The argument (40 bytes), the tile (12) and two 8-byte parameters.
// RUN: %python %S/../check_stats.py %t.every.sync.json live_bytes_at_exit=0 copies=1 bytes_copied=12 dispatches=0 peak_bytes=68
// RUN: %python %S/../check_stats.py %t.every.task.json live_bytes_at_exit=0 copies=1 bytes_copied=12 dispatches=0 peak_bytes=68
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,1,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EVERY-WALK
// EVERY-WALK: remark: peak live bytes: 68 (inputs 40, allocated 28)
// EVERY-WALK-NEXT: func.func @every
//
// Past the end (1 + 2 * 5 = 11), a negative stride, and a stride whose
// last index wraps back into range (5 + 2 * (2^63 - 1) = 3 mod 2^64): run-
// time errors naming the op.
// RUN: not ferry-run %t.fvm --function=every --input=@%t.x.npy --input=index=1 --input=index=5 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not ferry-run %t.fvm --function=every --input=@%t.x.npy --input=index=8 --input=index=-3 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not ferry-run %t.fvm --function=every --input=@%t.x.npy --input=index=5 --input=index=9223372036854775807 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}'tensor.extract_slice' at {{.*}}strided_dynamic_strides.mlir:[[# @LINE + 53]]:8: dimension 0 is out of bounds (offset, size and stride reach past the source)
//
// A 2 x 3 block of a dynamic 7 x 6 tensor, rows i, i + si, columns j,
// j + sj, j + 2 sj (dynamic offsets where a dim after the first is
// dynamic, and dynamic strides): one copy of 24 bytes.
// RUN: ferry-run %t.fvm --function=block --input=@%t.y.npy --input=index=1 --input=index=0 --input=index=3 --input=index=2 --output=@%t.block.sync.npy --stats=%t.block.sync.json
// RUN: ferry-run %t.fvm --function=block --device=__device_0=local-task --input=@%t.y.npy --input=index=1 --input=index=0 --input=index=3 --input=index=2 --output=@%t.block.task.npy --stats=%t.block.task.json
// RUN: %python -c "import numpy as np; y = np.load('%t.y.npy'); [np.testing.assert_array_equal(np.load('%t.block.' + d + '.npy'), y[1:5:3, 0:5:2]) for d in ('sync', 'task')]"
// RUN: %python %S/../check_stats.py %t.block.sync.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=0 peak_bytes=224
// RUN: %python %S/../check_stats.py %t.block.task.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=0 peak_bytes=224
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=7x6,1,0,3,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK-WALK
// BLOCK-WALK: remark: peak live bytes: 224 (inputs 168, allocated 56)
// BLOCK-WALK-NEXT: func.func @block
//
// Every other element written from t at offset 2, stride 3, into an
// argument that is not consumed: its clone (40 bytes) and the kernel (the
// tile's 12).
// RUN: ferry-run %t.fvm --function=spread --input=10xi32=0,1,2,3,4,5,6,7,8,9 --input=3xi32=-1,-2,-3 --input=index=2 --input=index=3 --stats=%t.spread.sync.json | FileCheck %s --check-prefix=SPREAD --match-full-lines
// RUN: ferry-run %t.fvm --function=spread --device=__device_0=local-task --input=10xi32=0,1,2,3,4,5,6,7,8,9 --input=3xi32=-1,-2,-3 --input=index=2 --input=index=3 --stats=%t.spread.task.json | FileCheck %s --check-prefix=SPREAD --match-full-lines
// RUN: %python -c "import numpy as np; d = np.arange(10, dtype=np.int32); d[2:9:3] = [-1, -2, -3]; print('10xi32=[' + ' '.join(map(str, d)) + ']')" | FileCheck %s --check-prefix=SPREAD --match-full-lines
// SPREAD: 10xi32=[0 1 -1 3 4 -2 6 7 -3 9]
// RUN: %python %S/../check_stats.py %t.spread.sync.json live_bytes_at_exit=0 copies=2 bytes_copied=52 dispatches=0 peak_bytes=108
// RUN: %python %S/../check_stats.py %t.spread.task.json live_bytes_at_exit=0 copies=2 bytes_copied=52 dispatches=0 peak_bytes=108
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,,2,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPREAD-WALK
// SPREAD-WALK: remark: peak live bytes: 108 (inputs 52, allocated 56)
// SPREAD-WALK-NEXT: func.func @spread
//
// A 2-d insert, everything dynamic: t (2 x 2) into rows 1, 3 and columns
// 0, 3 of a 4 x 5 tensor; an empty tile leaves the destination as it is
// (the kernel is skipped: it would read a tile with no element; the
// argument's clone, 80 bytes, is still made, before the branch).
// RUN: ferry-run %t.fvm --function=scatter --input=4x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=2x2xi32=-1,-2,-3,-4 --input=index=1 --input=index=0 --input=index=2 --input=index=3 --stats=%t.scatter.json | FileCheck %s --check-prefix=SCATTER --match-full-lines
// RUN: ferry-run %t.fvm --function=scatter --device=__device_0=local-task --input=4x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=2x2xi32=-1,-2,-3,-4 --input=index=1 --input=index=0 --input=index=2 --input=index=3 | FileCheck %s --check-prefix=SCATTER --match-full-lines
// RUN: %python -c "import numpy as np; d = np.arange(20, dtype=np.int32).reshape(4, 5); d[1:4:2, 0:4:3] = [[-1, -2], [-3, -4]]; print('4x5xi32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d))" | FileCheck %s --check-prefix=SCATTER --match-full-lines
// SCATTER: 4x5xi32=[0 1 2 3 4][-1 6 7 -2 9][10 11 12 13 14][-3 16 17 -4 19]
// RUN: %python %S/../check_stats.py %t.scatter.json live_bytes_at_exit=0 copies=2 bytes_copied=96 dispatches=0 peak_bytes=224
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x5,2x2,1,0,2,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCATTER-WALK
// SCATTER-WALK: remark: peak live bytes: 224 (inputs 96, allocated 128)
// SCATTER-WALK-NEXT: func.func @scatter
// RUN: ferry-run %t.fvm --function=scatter --input=4x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=0x2xi32= --input=index=1 --input=index=0 --input=index=2 --input=index=3 --stats=%t.empty.json | FileCheck %s --check-prefix=UNCHANGED --match-full-lines
// UNCHANGED: 4x5xi32=[0 1 2 3 4][5 6 7 8 9][10 11 12 13 14][15 16 17 18 19]
// RUN: %python %S/../check_stats.py %t.empty.json live_bytes_at_exit=0 copies=1 bytes_copied=80 fills=0 dispatches=0
//
// A column of a dynamic tensor, n rows from row 1 at stride s (rank
// reducing, a dynamic size): an empty source with n = 0 skips the kernel.
// RUN: ferry-run %t.fvm --function=column --input=@%t.y.npy --input=index=4 --input=index=3 --input=index=2 --output=@%t.column.npy --stats=%t.column.json
// RUN: %python -c "import numpy as np; y = np.load('%t.y.npy'); np.testing.assert_array_equal(np.load('%t.column.npy'), y[1:7:2, 4])"
// RUN: %python %S/../check_stats.py %t.column.json live_bytes_at_exit=0 copies=1 bytes_copied=12 dispatches=0
// RUN: ferry-run %t.fvm --function=column --input=0x3xf32= --input=index=0 --input=index=0 --input=index=2 --stats=%t.column0.json | FileCheck %s --check-prefix=NONE --match-full-lines
// NONE: 0xf32=[]
// RUN: %python %S/../check_stats.py %t.column0.json live_bytes_at_exit=0 copies=0 dispatches=0

func.func @every(%x: tensor<10xf32>, %o: index, %s: index) -> tensor<3xf32> {
  %t = tensor.extract_slice %x[%o] [3] [%s] : tensor<10xf32> to tensor<3xf32>
  return %t : tensor<3xf32>
}

func.func @block(%x: tensor<?x?xf32>, %i: index, %j: index, %si: index, %sj: index) -> tensor<2x3xf32> {
  %t = tensor.extract_slice %x[%i, %j] [2, 3] [%si, %sj] : tensor<?x?xf32> to tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}

func.func @spread(%d: tensor<10xi32>, %t: tensor<3xi32>, %o: index, %s: index) -> tensor<10xi32> {
  %r = tensor.insert_slice %t into %d[%o] [3] [%s] : tensor<3xi32> into tensor<10xi32>
  return %r : tensor<10xi32>
}

func.func @scatter(%d: tensor<?x?xi32>, %t: tensor<?x?xi32>, %i: index, %j: index, %si: index, %sj: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c0 : tensor<?x?xi32>
  %m = tensor.dim %t, %c1 : tensor<?x?xi32>
  %r = tensor.insert_slice %t into %d[%i, %j] [%n, %m] [%si, %sj] : tensor<?x?xi32> into tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @column(%x: tensor<?x?xf32>, %j: index, %n: index, %s: index) -> tensor<?xf32> {
  %t = tensor.extract_slice %x[1, %j] [%n, 1] [%s, 1] : tensor<?x?xf32> to tensor<?xf32>
  return %t : tensor<?xf32>
}
