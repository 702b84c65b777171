// Gathers: a linalg.generic whose body reads elements of a tensor from
// outside it (tensor.extract at indices it computes), the tensor a binding
// of the dispatch. An embedding lookup (rows of a table picked by ids, as
// torch-mlir lowers aten.embedding), a reversal by linalg.index, and a
// lookup fused with a scaling; indices out of range read the nearest
// element (clamped: never past the binding). Both drivers against NumPy,
// nothing left live, peak equal to the walk.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(8); np.save('%t.table.npy', r.standard_normal((50, 16)).astype(np.float32)); np.save('%t.ids.npy', r.integers(0, 50, 37).astype(np.int32)); np.save('%t.bad.npy', np.array([-3, 0, 49, 50, 1000], np.int32)); np.save('%t.x.npy', r.standard_normal(1000).astype(np.float32))"
// RUN: ferry-compile %s -o %t.fvm
//
// The table is a binding after the ids and the destination.
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --check-prefix=ASYNC
// ASYNC-LABEL: func.func @embed_dispatch_0(
// ASYNC-SAME:    %[[IDS:.*]]: tensor<?xi32>, %{{.*}}: tensor<?x16xf32>, %[[TABLE:.*]]: tensor<50x16xf32>)
// ASYNC:         tensor.extract %[[TABLE]]
//
// RUN: ferry-run %t.fvm --function=embed --input=@%t.ids.npy --input=@%t.table.npy --output=@%t.embed.sync.npy --stats=%t.embed.sync.json
// RUN: ferry-run %t.fvm --function=embed --device=__device_0=local-task --input=@%t.ids.npy --input=@%t.table.npy --output=@%t.embed.task.npy --stats=%t.embed.task.json
// RUN: %python -c "import numpy as np; t, i = np.load('%t.table.npy'), np.load('%t.ids.npy'); [np.testing.assert_array_equal(np.load('%t.embed.' + d + '.npy'), t[i]) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.embed.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=5716
// RUN: %python %S/check_stats.py %t.embed.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=5716
// RUN: ferry-run %t.fvm --function=embed --input=@%t.bad.npy --input=@%t.table.npy --output=@%t.bad.out.npy
// RUN: %python -c "import numpy as np; t, i = np.load('%t.table.npy'), np.load('%t.bad.npy'); np.testing.assert_array_equal(np.load('%t.bad.out.npy'), t[np.clip(i, 0, 49)])"
//
// RUN: ferry-run %t.fvm --function=reverse --input=@%t.x.npy --output=@%t.rev.sync.npy --stats=%t.rev.sync.json
// RUN: ferry-run %t.fvm --function=reverse --device=__device_0=local-task --input=@%t.x.npy --output=@%t.rev.task.npy
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); [np.testing.assert_array_equal(np.load('%t.rev.' + d + '.npy'), x[::-1]) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.rev.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=8000
//
// RUN: ferry-run %t.fvm --function=embed_scaled --input=@%t.ids.npy --input=@%t.table.npy --input=f32=0.25 --output=@%t.es.sync.npy --stats=%t.es.sync.json
// RUN: ferry-run %t.fvm --function=embed_scaled --device=__device_0=local-task --input=@%t.ids.npy --input=@%t.table.npy --input=f32=0.25 --output=@%t.es.task.npy
// RUN: %python -c "import numpy as np; t, i = np.load('%t.table.npy'), np.load('%t.ids.npy'); [np.testing.assert_array_equal(np.load('%t.es.' + d + '.npy'), t[i] * np.float32(0.25)) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.es.sync.json live_bytes_at_exit=0 copies=0 dispatches=1
//
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=37,50x16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK:      remark: peak live bytes: 5716 (inputs 3348, allocated 2368)
// WALK-NEXT: func.func @embed
// WALK:      remark: peak live bytes: 8000 (inputs 4000, allocated 4000)
// WALK-NEXT: func.func @reverse

func.func @embed(%ids: tensor<?xi32>, %table: tensor<50x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<?xi32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<50x16xf32>
    linalg.yield %v : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

func.func @reverse(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %c999 = arith.constant 999 : index
  %e = tensor.empty() : tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<1000xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = arith.subi %c999, %i : index
    %v = tensor.extract %x[%j] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

func.func @embed_scaled(%ids: tensor<?xi32>, %table: tensor<50x16xf32>, %s: f32) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %ids, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<?xi32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<50x16xf32>
    linalg.yield %v : f32
  } -> tensor<?x16xf32>
  %e2 = tensor.empty(%n) : tensor<?x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x16xf32>) outs(%e2 : tensor<?x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<?x16xf32>
  return %scaled : tensor<?x16xf32>
}
