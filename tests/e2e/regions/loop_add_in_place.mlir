// Issue 15's loop from the input language: an scf.for adding x to a
// 1M-element tensor in place N times, N a scalar argument. No copy, the
// same allocations for N = 1 and N = 1000 (the input and the accumulator),
// nothing live at exit, peak_bytes equal to the liveness walk's.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', (np.arange(1048576) %% 7).astype(np.float32))"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=0 --stats=%t.0.json | FileCheck %s --check-prefix=N0
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=1 --stats=%t.1.json | FileCheck %s --check-prefix=N1
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=1000 --stats=%t.1000.json | FileCheck %s --check-prefix=N1000
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=index=1000 --stats=%t.task.json | FileCheck %s --check-prefix=N1000
// N0: 1048576xf32=[0 0 0 ... 0 0 0]
// N1: 1048576xf32=[0 1 2 ... 1 2 3]
// N1000: 1048576xf32=[0 1000 2000 ... 1000 2000 3000]
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=0 peak_bytes=8388608
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=1 peak_bytes=8388608
// RUN: %python %S/../check_stats.py %t.1000.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=1000 peak_bytes=8388608
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=2 dispatches=1000 peak_bytes=8388608
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 8388608 (inputs 4194304, allocated 4194304)
func.func @main(%x: tensor<1048576xf32>, %n: index) -> tensor<1048576xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1048576xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1048576xf32>) -> tensor<1048576xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1048576xf32>) {
    %y = arith.addf %acc, %x : tensor<1048576xf32>
    scf.yield %y : tensor<1048576xf32>
  }
  return %r : tensor<1048576xf32>
}
