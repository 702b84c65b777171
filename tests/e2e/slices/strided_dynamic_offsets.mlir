// Strided slices at offsets computed at run time: the slice is taken in the
// full tensor collapsed to one dim, where the range from its first element
// to its last is contiguous. An extract is a copy kernel reading that range
// in place (a view: one copy, the tile's bytes, no other); an insert writes
// the tile into a copy of the range and updates it back. Both drivers
// against NumPy, a rank-reducing extract, a dynamic outer dim, and a
// dynamic offset out of bounds failing at run time naming the op.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(7 * 6 * 5, dtype=np.float32).reshape(7, 6, 5))"
// RUN: ferry-compile %s -o %t.fvm
//
// A 2 x 3 block of rows i, i + 2 and columns j, j + 1, j + 2 of x[1].
// RUN: ferry-run %t.fvm --function=block --input=@%t.x.npy --input=index=3 --input=index=2 --output=@%t.block.sync.npy --stats=%t.block.sync.json
// RUN: ferry-run %t.fvm --function=block --device=__device_0=local-task --input=@%t.x.npy --input=index=3 --input=index=2 --output=@%t.block.task.npy --stats=%t.block.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = x[1, 3:6:2, 2:5]; [np.testing.assert_array_equal(np.load('%t.block.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/../check_stats.py %t.block.sync.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=0 peak_bytes=864
// RUN: %python %S/../check_stats.py %t.block.task.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=0 peak_bytes=864
// RUN: not ferry-run %t.fvm --function=block --input=@%t.x.npy --input=index=5 --input=index=2 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}'tensor.extract_slice' at {{.*}}strided_dynamic_offsets.mlir:[[# @LINE + 17]]:8: dimension 1 is out of bounds (offset, size and stride reach past the source)
//
// Every other column of rows i.. of a dynamic-row tensor, written back
// doubled at the same place (insert at dynamic offsets).
// RUN: ferry-run %t.fvm --function=scatter --input=5x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=index=2 --input=index=1 | FileCheck %s --check-prefix=SCATTER --match-full-lines
// RUN: ferry-run %t.fvm --function=scatter --device=__device_0=local-task --input=5x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 --input=index=2 --input=index=1 --stats=%t.scatter.json | FileCheck %s --check-prefix=SCATTER --match-full-lines
// RUN: %python -c "import numpy as np; d = np.arange(20, dtype=np.int32).reshape(5, 4); d[2:5, 1::2] *= 2; print('5x4xi32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d))" | FileCheck %s --check-prefix=SCATTER --match-full-lines
// SCATTER: 5x4xi32=[0 1 2 3][4 5 6 7][8 18 10 22][12 26 14 30][16 34 18 38]
// The argument's clone (80 bytes; it is not consumed), the extract's
// kernel (24), the range copied for the insert's kernel, which the
// doubling fused into (44), and updated back (44).
// RUN: %python %S/../check_stats.py %t.scatter.json live_bytes_at_exit=0 copies=4 bytes_copied=192 dispatches=1 peak_bytes=204
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=5x4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 864 (inputs 840, allocated 24)
// WALK: remark: peak live bytes: 204 (inputs 80, allocated 148)

func.func @block(%x: tensor<7x6x5xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  %t = tensor.extract_slice %x[1, %i, %j] [1, 2, 3] [1, 2, 1] : tensor<7x6x5xf32> to tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}

func.func @scatter(%d: tensor<?x4xi32>, %i: index, %j: index) -> tensor<?x4xi32> {
  %t = tensor.extract_slice %d[%i, %j] [3, 2] [1, 2] : tensor<?x4xi32> to tensor<3x2xi32>
  %twice = arith.addi %t, %t : tensor<3x2xi32>
  %r = tensor.insert_slice %twice into %d[%i, %j] [3, 2] [1, 2] : tensor<3x2xi32> into tensor<?x4xi32>
  return %r : tensor<?x4xi32>
}
