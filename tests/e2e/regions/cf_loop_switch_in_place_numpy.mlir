// A 1M-element loop of cf blocks whose body is a cf.switch on i mod 3
// (lifted to an scf.index_switch inside the rotated scf.while): case 0
// adds x to the accumulator, case 1 subtracts it, the default adds it,
// each case in place; checked element by element against NumPy for N = 0,
// 1 and 1000 (a scalar input, given as a 0-d .npy for N = 1000). The
// switch's cases are leaves of the lifted loop's flag tree like an scf.if's
// branches, so the exit passes the accumulator the iteration received and
// each case writes it in place; allocation scheduling gives the switch the
// accumulator itself as its result, so reference counting follows one
// value. Before: one allocation every iteration (1003 at N = 1000). Each
// run: no copy, two allocations, nothing live at exit, peak_bytes equal to
// the walk.
// RUN: ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s --allow-empty --check-prefix=COMPILE
// COMPILE-NOT: indeterminate
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', (np.arange(1048576) %% 13 - 6).astype(np.float32)); np.save('%t.n.npy', np.array(1000, dtype=np.int32))"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=0 --output=@%t.r0.npy --stats=%t.0.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=1 --output=@%t.r1.npy --stats=%t.1.json
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=@%t.n.npy --output=@%t.r1000.npy --stats=%t.1000.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); [np.testing.assert_array_equal(np.load('%t.r' + str(n) + '.npy'), x * np.float32(sum(-1 if i %% 3 == 1 else 1 for i in range(n)))) for n in (0, 1, 1000)]"
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=8388608
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=8388608
// RUN: %python %S/../check_stats.py %t.1000.json live_bytes_at_exit=0 copies=0 allocations=2 peak_bytes=8388608
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not=upper
// WALK: remark: peak live bytes: 8388608 (inputs 4194304, allocated 4194304)
func.func @main(%x: tensor<1048576xf32>, %n: i32) -> tensor<1048576xf32> {
  %zero = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %e = tensor.empty() : tensor<1048576xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1048576xf32>) -> tensor<1048576xf32>
  cf.br ^head(%i0, %init : i32, tensor<1048576xf32>)
^head(%i: i32, %acc: tensor<1048576xf32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %i1 = arith.addi %i, %one : i32
  %sel = arith.remui %i, %three : i32
  cf.switch %sel : i32, [
    default: ^d,
    0: ^a,
    1: ^b
  ]
^a:
  %ya = arith.addf %acc, %x : tensor<1048576xf32>
  cf.br ^head(%i1, %ya : i32, tensor<1048576xf32>)
^b:
  %yb = arith.subf %acc, %x : tensor<1048576xf32>
  cf.br ^head(%i1, %yb : i32, tensor<1048576xf32>)
^d:
  %yd = arith.addf %acc, %x : tensor<1048576xf32>
  cf.br ^head(%i1, %yd : i32, tensor<1048576xf32>)
^exit:
  return %acc : tensor<1048576xf32>
}
