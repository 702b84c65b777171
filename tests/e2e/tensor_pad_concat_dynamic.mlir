// tensor.pad with dynamic low padding where the source is one contiguous
// range of the result (an update of a byte range, after a fill), a pad whose
// value is computed per element from its indices, and tensor.concat of
// dynamic inputs on an axis after dims of size 1 (updates, no dispatch);
// local-sync and local-task, against NumPy; nothing left live, peak equal
// to the liveness walk.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t.x.npy', r.standard_normal(37).astype(np.float32)); np.save('%t.rows.npy', r.standard_normal((1, 5, 4)).astype(np.float32)); np.save('%t.q.npy', r.standard_normal((1, 6, 8)).astype(np.float32)); np.save('%t.k.npy', r.standard_normal((1, 3, 8)).astype(np.float32))"
// RUN: ferry-compile %s -o %t.fvm
//
// x padded with 5 before and 2 after with -1.5: one fill, one update.
// RUN: ferry-run %t.fvm --function=pad_low --input=@%t.x.npy --input=index=5 --input=index=2 --input=f32=-1.5 --output=@%t.pl.sync.npy --stats=%t.pl.sync.json
// RUN: ferry-run %t.fvm --function=pad_low --device=__device_0=local-task --input=@%t.x.npy --input=index=5 --input=index=2 --input=f32=-1.5 --output=@%t.pl.task.npy --stats=%t.pl.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = np.pad(x, (5, 2), constant_values=np.float32(-1.5)); [np.testing.assert_array_equal(np.load('%t.pl.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.pl.sync.json live_bytes_at_exit=0 fills=1 copies=1 bytes_copied=148 dispatches=0 peak_bytes=324
// RUN: %python %S/check_stats.py %t.pl.task.json live_bytes_at_exit=0 fills=1 copies=1 bytes_copied=148 dispatches=0 peak_bytes=324
// No padding at all is the source copied whole.
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=pad_low --input=@%t.x.npy --input=index=0 --input=index=0 --input=f32=9 --output=@%t.pl0.npy
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=296
// RUN: %python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.pl0.npy'), np.load('%t.x.npy'))"
//
// Rows of a 1 x N x 4 tensor padded in dimension 1 (dynamic low), zeros.
// RUN: ferry-run %t.fvm --function=pad_rows --input=@%t.rows.npy --input=index=3 --output=@%t.pr.npy --device=__device_0=local-task --stats=%t.pr.json
// RUN: %python -c "import numpy as np; x = np.load('%t.rows.npy'); np.testing.assert_array_equal(np.load('%t.pr.npy'), np.pad(x, ((0, 0), (3, 1), (0, 0))))"
// RUN: %python %S/check_stats.py %t.pr.json live_bytes_at_exit=0 copies=1 dispatches=0 peak_bytes=224
//
// A padding value of 10 * i + j at result index (i, j): one generic.
// RUN: ferry-run %t.fvm --function=pad_ramp --input=3x2xi32=1,2,3,4,5,6 --output=@%t.ramp.npy --stats=%t.ramp.json
// RUN: %python -c "import numpy as np; ref = np.add.outer(10 * np.arange(4), np.arange(5)).astype(np.int32); ref[1:, 2:4] = np.arange(1, 7).reshape(3, 2); np.testing.assert_array_equal(np.load('%t.ramp.npy'), ref)"
// RUN: %python %S/check_stats.py %t.ramp.json live_bytes_at_exit=0 peak_bytes=104
//
// q and k concatenated on the sequence axis, both of dynamic length.
// RUN: ferry-run %t.fvm --function=concat_seq --input=@%t.q.npy --input=@%t.k.npy --output=@%t.cs.sync.npy --stats=%t.cs.sync.json
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=concat_seq --device=__device_0=local-task --input=@%t.q.npy --input=@%t.k.npy --output=@%t.cs.task.npy
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=768
// RUN: %python -c "import numpy as np; q, k = np.load('%t.q.npy'), np.load('%t.k.npy'); ref = np.concatenate([q, k, q], axis=1); [np.testing.assert_array_equal(np.load('%t.cs.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.cs.sync.json live_bytes_at_exit=0 copies=3 bytes_copied=480 dispatches=0 allocations=3 peak_bytes=768
//
// The walk, per function (sizes given by the first argument's shape).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x6x8,1x3x8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK:      remark: peak live bytes: 768 (inputs 288, allocated 480)
// WALK-NEXT: func.func @concat_seq
// pad_ramp is static.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAMPWALK
// RAMPWALK:      remark: peak live bytes: 104 (inputs 24, allocated 80)
// RAMPWALK-NEXT: func.func @pad_ramp
// pad_low's and pad_rows' results are sized by their scalar paddings:
// input-shapes gives their values after the tensor's shape, as the runs
// above.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=37,5,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PADWALK
// PADWALK:      remark: peak live bytes: 324 (inputs 148, allocated 176)
// PADWALK-NEXT: func.func @pad_low
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=37,0,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PADWALK0
// PADWALK0:      remark: peak live bytes: 296 (inputs 148, allocated 148)
// PADWALK0-NEXT: func.func @pad_low
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x5x4,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWSWALK
// ROWSWALK:      remark: peak live bytes: 224 (inputs 80, allocated 144)
// ROWSWALK-NEXT: func.func @pad_rows

func.func @pad_low(%x: tensor<?xf32>, %lo: index, %hi: index, %v: f32) -> tensor<?xf32> {
  %r = tensor.pad %x low[%lo] high[%hi] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @pad_rows(%x: tensor<1x?x4xf32>, %lo: index) -> tensor<1x?x4xf32> {
  %zero = arith.constant 0.0 : f32
  %r = tensor.pad %x low[0, %lo, 0] high[0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x?x4xf32> to tensor<1x?x4xf32>
  return %r : tensor<1x?x4xf32>
}

func.func @pad_ramp(%x: tensor<3x2xi32>) -> tensor<4x5xi32> {
  %c10 = arith.constant 10 : index
  %r = tensor.pad %x low[1, 2] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %t = arith.muli %i, %c10 : index
    %s = arith.addi %t, %j : index
    %v = arith.index_cast %s : index to i32
    tensor.yield %v : i32
  } : tensor<3x2xi32> to tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}

func.func @concat_seq(%q: tensor<1x?x8xf32>, %k: tensor<1x?x8xf32>) -> tensor<1x?x8xf32> {
  %r = tensor.concat dim(1) %q, %k, %q : (tensor<1x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
  return %r : tensor<1x?x8xf32>
}
