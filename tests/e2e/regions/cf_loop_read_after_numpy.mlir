// A 1M-element loop of cf blocks writing its accumulator in place (a
// linalg.generic whose outs is the accumulator) while the accumulator's
// initial value is read again after the loop: x added N times into 2x,
// then 2x subtracted, checked element by element against NumPy for N = 0,
// 1 and 1000 (a scalar input, given as a 0-d .npy for N = 1000). The write
// may reach the initial value on the first iteration, so it is copied:
// once, before the loop, as for an scf.for (copy elision removes the body's
// copy of the accumulator, not the one made on entry). Before, the body
// copied every iteration (1000 copies and 1003 allocations at N = 1000,
// and a walk that was an upper bound). Each run: one copy, three
// allocations, nothing live at exit, peak_bytes equal to the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', (np.arange(1048576) %% 13 - 6).astype(np.float32)); np.save('%t.n.npy', np.array(1000, dtype=np.int32))"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=0 --output=@%t.r0.npy --stats=%t.0.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=1 --output=@%t.r1.npy --stats=%t.1.json
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=@%t.n.npy --output=@%t.r1000.npy --stats=%t.1000.json
// RUN: %python -c "import numpy as np; x = np.load('%t.x.npy'); [np.testing.assert_array_equal(np.load('%t.r' + str(n) + '.npy'), (x + x + x * np.float32(n)) - (x + x)) for n in (0, 1, 1000)]"
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=1 allocations=3 peak_bytes=12582912
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=1 allocations=3 peak_bytes=12582912
// RUN: %python %S/../check_stats.py %t.1000.json live_bytes_at_exit=0 copies=1 allocations=3 peak_bytes=12582912
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not=upper
// WALK: remark: peak live bytes: 12582912 (inputs 4194304, allocated 8388608)
#map = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<1048576xf32>, %n: i32) -> tensor<1048576xf32> {
  %i0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %init = arith.addf %x, %x : tensor<1048576xf32>
  cf.br ^head(%i0, %init : i32, tensor<1048576xf32>)
^head(%i: i32, %acc: tensor<1048576xf32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<1048576xf32>) outs(%acc : tensor<1048576xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1048576xf32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<1048576xf32>)
^exit:
  %r = arith.subf %acc, %init : tensor<1048576xf32>
  return %r : tensor<1048576xf32>
}
