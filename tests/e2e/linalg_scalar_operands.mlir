// Scalars a linalg body reads that are no constants: a function argument
// captured by the body or passed as a scalar `ins`, an index (cast to i64
// and back), a loop's induction variable, a value read back from a tensor,
// and a scalar in a producer fused into a matmul. Each is passed to the
// dispatch as a 0-d tensor filled with it (FormDispatches.h), on local-sync
// and local-task, compared with NumPy; nothing is left live and the peak
// is the liveness walk's.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); np.save('%t.x.npy', r.standard_normal(1000).astype(np.float32)); np.save('%t.m.npy', r.standard_normal((200, 16)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((16, 8)).astype(np.float32)); np.save('%t.i.npy', r.integers(-50, 50, 1000).astype(np.int32))"
// RUN: ferry-compile %s -o %t.fvm
//
// The body's scalar becomes a fill of a 0-d tensor the dispatch reads.
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --check-prefix=ASYNC
// ASYNC-LABEL: func.func @scale(
// ASYNC:         %[[B:.+]] = stream.async.fill %arg2
// ASYNC:         %[[A:.+]] = stream.async.fill %arg1
// ASYNC:         stream.async.dispatch.entry @scale_dispatch_0::@scale_dispatch_0 {{.*}} (%{{.+}}, %[[B]], %[[A]], %{{.+}})
//
// RUN: ferry-run %t.fvm --function=scale --input=@%t.x.npy --input=f32=-2.5 --input=f32=0.75 --output=@%t.scale.sync.npy --stats=%t.scale.sync.json
// RUN: ferry-run %t.fvm --function=scale --device=__device_0=local-task --input=@%t.x.npy --input=f32=-2.5 --input=f32=0.75 --output=@%t.scale.task.npy --stats=%t.scale.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = x * np.float32(-2.5) + np.float32(0.75); [np.testing.assert_array_equal(np.load('%t.scale.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.scale.sync.json live_bytes_at_exit=0 copies=0 peak_bytes=8008
// RUN: %python %S/check_stats.py %t.scale.task.json live_bytes_at_exit=0 copies=0 peak_bytes=8008
//
// out[i] = x[i] + i * k, k an index argument.
// RUN: ferry-run %t.fvm --function=ramp --input=@%t.i.npy --input=index=-3 --output=@%t.ramp.sync.npy --stats=%t.ramp.sync.json
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=ramp --device=__device_0=local-task --input=@%t.i.npy --input=index=-3 --output=@%t.ramp.task.npy
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=8008
// RUN: %python -c "import numpy as np; x = np.load('%t.i.npy'); ref = x + np.arange(1000, dtype=np.int32) * -3; [np.testing.assert_array_equal(np.load('%t.ramp.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.ramp.sync.json live_bytes_at_exit=0 copies=0 peak_bytes=8008
//
// x * 1 * 2 * ... * n: the induction variable in the body, each
// iteration's 0-d tensor freed in it (one allocation per iteration: 8
// bytes), the product written in place over the carried value (one copy:
// of the argument, before the loop).
// RUN: ferry-run %t.fvm --function=factorial --input=@%t.x.npy --input=index=5 --output=@%t.fact.sync.npy --stats=%t.fact.sync.json
// RUN: ferry-run %t.fvm --function=factorial --device=__device_0=local-task --input=@%t.x.npy --input=index=5 --output=@%t.fact.task.npy --stats=%t.fact.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = x.copy(); [ref.__imul__(np.float32(i)) for i in range(1, 6)]; [np.testing.assert_array_equal(np.load('%t.fact.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.fact.sync.json live_bytes_at_exit=0 copies=1 allocations=7 peak_bytes=8008
// RUN: %python %S/check_stats.py %t.fact.task.json live_bytes_at_exit=0 copies=1 allocations=7 peak_bytes=8008
//
// x / max(x): the maximum read back from a tensor, then read by a body.
// RUN: ferry-run %t.fvm --function=normalize --input=@%t.x.npy --output=@%t.norm.sync.npy --stats=%t.norm.sync.json
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=normalize --device=__device_0=local-task --input=@%t.x.npy --output=@%t.norm.task.npy
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=8004
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); ref = x / x.max(); [np.testing.assert_array_equal(np.load('%t.norm.' + d + '.npy'), ref) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.norm.sync.json live_bytes_at_exit=0 copies=0 peak_bytes=8004
//
// (m * s) @ w: the scaling fused into the matmul's dispatch, s its 0-d
// binding.
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @scaled_matmul(
// FUSED:         stream.async.dispatch.entry @scaled_matmul_dispatch_0
// FUSED-NOT:     stream.async.dispatch
// FUSED:         return
// RUN: ferry-run %t.fvm --function=scaled_matmul --input=@%t.m.npy --input=@%t.w.npy --input=f32=0.5 --output=@%t.mm.sync.npy --stats=%t.mm.sync.json
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --function=scaled_matmul --device=__device_0=local-task --input=@%t.m.npy --input=@%t.w.npy --input=f32=0.5 --output=@%t.mm.task.npy
// RUN: %python %S/check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=19716
// RUN: %python -c "import numpy as np; m, w = (np.load('%t.' + n + '.npy') for n in 'mw'); ref = (m * np.float32(0.5)) @ w; [np.testing.assert_allclose(np.load('%t.mm.' + d + '.npy'), ref, rtol=1e-5, atol=1e-5) for d in ('sync', 'task')]"
// RUN: %python %S/check_stats.py %t.mm.sync.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=19716
//
// The walk, per function in order.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK:      remark: peak live bytes: 8008 (inputs 4000, allocated 4008)
// WALK-NEXT: func.func @scale
// WALK:      remark: peak live bytes: 8008 (inputs 4000, allocated 4008)
// WALK-NEXT: func.func @ramp
// WALK:      remark: peak live bytes: 8008 (inputs 4000, allocated 4008)
// WALK-NEXT: func.func @factorial
// WALK:      remark: peak live bytes: 8004 (inputs 4000, allocated 4008)
// WALK-NEXT: func.func @normalize
// WALK:      remark: peak live bytes: 19716 (inputs 13312, allocated 6404)
// WALK-NEXT: func.func @scaled_matmul

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

func.func @scale(%x: tensor<1000xf32>, %a: f32, %b: f32) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
      ins(%x, %b : tensor<1000xf32>, f32) outs(%e : tensor<1000xf32>) {
  ^bb0(%v: f32, %add: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    %s = arith.addf %m, %add : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

func.func @ramp(%x: tensor<1000xi32>, %k: index) -> tensor<1000xi32> {
  %e = tensor.empty() : tensor<1000xi32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xi32>) outs(%e : tensor<1000xi32>) {
  ^bb0(%v: i32, %o: i32):
    %i = linalg.index 0 : index
    %ik = arith.muli %i, %k : index
    %c = arith.index_cast %ik : index to i32
    %s = arith.addi %v, %c : i32
    linalg.yield %s : i32
  } -> tensor<1000xi32>
  return %r : tensor<1000xi32>
}

func.func @factorial(%x: tensor<1000xf32>, %n: index) -> tensor<1000xf32> {
  %c1 = arith.constant 1 : index
  %end = arith.addi %n, %c1 : index
  %r = scf.for %i = %c1 to %end step %c1 iter_args(%acc = %x) -> (tensor<1000xf32>) {
    %e = tensor.empty() : tensor<1000xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%acc : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
    ^bb0(%v: f32, %o: f32):
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      %m = arith.mulf %v, %f : f32
      linalg.yield %m : f32
    } -> tensor<1000xf32>
    scf.yield %next : tensor<1000xf32>
  }
  return %r : tensor<1000xf32>
}

func.func @normalize(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
  %max = linalg.generic {indexing_maps = [#id, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
      ins(%x : tensor<1000xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%v: f32, %m: f32):
    %n = arith.maximumf %v, %m : f32
    linalg.yield %n : f32
  } -> tensor<1xf32>
  %top = tensor.extract %max[%c0] : tensor<1xf32>
  %e = tensor.empty() : tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %top : f32
    linalg.yield %d : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

func.func @scaled_matmul(%m: tensor<200x16xf32>, %w: tensor<16x8xf32>, %s: f32) -> tensor<200x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<200x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<200x16xf32>) outs(%e0 : tensor<200x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.mulf %v, %s : f32
    linalg.yield %p : f32
  } -> tensor<200x16xf32>
  %e = tensor.empty() : tensor<200x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<200x8xf32>) -> tensor<200x8xf32>
  %r = linalg.matmul ins(%scaled, %w : tensor<200x16xf32>, tensor<16x8xf32>) outs(%z : tensor<200x8xf32>) -> tensor<200x8xf32>
  return %r : tensor<200x8xf32>
}
