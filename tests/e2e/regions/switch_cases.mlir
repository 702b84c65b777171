// An scf.index_switch on a scalar case selector (issue 15: every region
// kind; index_switch is how lowerings express a multi-way branch). Case 0
// makes a new value; case 1 a temporary (x * x, read twice) that the
// fused rest of the case writes in place; case 2
// writes in place into a value made before the switch (its clone elided:
// nothing after the switch reads it), which the default hands out as is.
// Each case's result against NumPy, no copy, nothing live at exit, and the
// liveness walk's peak that of the largest cases (0 and 1).
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', (np.arange(1024) %% 13 - 6).astype(np.float32))"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=0 --output=@%t.0.npy --stats=%t.0.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=1 --output=@%t.1.npy --stats=%t.1.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=2 --output=@%t.2.npy --stats=%t.2.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=3 --output=@%t.3.npy --stats=%t.3.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=index=1000 --output=@%t.1000.npy --stats=%t.1000.json
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=index=1 --output=@%t.task.npy --stats=%t.task.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); y = x + np.float32(5); refs = {'0': x + x, '1': x * x * x + x * x, '2': y + x, '3': y, '1000': y, 'task': x * x * x + x * x}; [np.testing.assert_array_equal(np.load('%t.' + k + '.npy'), ref, err_msg='case ' + k) for k, ref in refs.items()]"
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0 peak_bytes=12288
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=0 peak_bytes=12288
// RUN: %python %S/../check_stats.py %t.2.json live_bytes_at_exit=0 copies=0 peak_bytes=8192
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 copies=0 peak_bytes=8192
// RUN: %python %S/../check_stats.py %t.1000.json live_bytes_at_exit=0 copies=0 peak_bytes=8192
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 peak_bytes=12288
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 12288 (inputs 4096, allocated 8192)
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.index_switch
func.func @main(%x: tensor<1024xf32>, %sel: index) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %k = arith.constant 5.0 : f32
  %f = linalg.fill ins(%k : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %y = arith.addf %f, %x : tensor<1024xf32>
  %r = scf.index_switch %sel -> tensor<1024xf32>
  case 0 {
    %a = arith.addf %x, %x : tensor<1024xf32>
    scf.yield %a : tensor<1024xf32>
  }
  case 1 {
    %t = arith.mulf %x, %x : tensor<1024xf32>
    %u = arith.mulf %t, %x : tensor<1024xf32>
    %v = arith.addf %u, %t : tensor<1024xf32>
    scf.yield %v : tensor<1024xf32>
  }
  case 2 {
    %w = arith.addf %y, %x : tensor<1024xf32>
    scf.yield %w : tensor<1024xf32>
  }
  default {
    scf.yield %y : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
