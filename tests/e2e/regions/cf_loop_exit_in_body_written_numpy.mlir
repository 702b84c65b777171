// A 1M-element loop of cf blocks with an exit in the middle of its body
// that passes out a new value (t = acc + x) the loop does not carry, which
// the path that goes on then doubles in place (t + t, the next
// accumulator); the exit before the body passes x. Checked element by
// element against NumPy for N = 0, 1, 3 (exits at the head) and 1000 (a
// 0-d .npy: exits in the body once t[0] passes 1000). The exit's position
// and the accumulator's merge (the exits never read the accumulator), so
// the path that goes on passes the new accumulator there, not a poison:
// before, each iteration allocated two buffers (21 allocations at
// N = 1000, the walk gave no peak). Now the body adds and doubles in
// place. Each run: nothing live at exit; for every N that exits at the
// head the same 3 allocations (x's input buffer, the accumulator, and the
// copy of x the exit passes out: the position owns what it passes) and
// peak_bytes equal to the walk; at N = 1000 the exit in the body passes t
// and copies nothing: 2 allocations, 4 MiB below the walk, which counts
// the larger way out.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', (np.arange(1048576) %% 13 + 1).astype(np.int32)); np.save('%t.n.npy', np.array(1000, dtype=np.int32))"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=0 --output=@%t.r0.npy --stats=%t.0.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=1 --output=@%t.r1.npy --stats=%t.1.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=i32=3 --output=@%t.r3.npy --stats=%t.3.json
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=@%t.n.npy --output=@%t.r1000.npy --stats=%t.1000.json
// RUN: %python %S/../cf_exit_in_body_reference.py %t.x.npy %t.r 0 1 3 1000
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 allocations=3 peak_bytes=12582912
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 allocations=3 peak_bytes=12582912
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 allocations=3 peak_bytes=12582912
// RUN: %python %S/../check_stats.py %t.1000.json live_bytes_at_exit=0 allocations=2 peak_bytes=8388608
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 12582912 (inputs 4194304, allocated 8388608)
func.func @main(%x: tensor<1048576xi32>, %n: i32) -> tensor<1048576xi32> {
  %zero = arith.constant 0 : i32
  %limit = arith.constant 1000 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<1048576xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1048576xi32>) -> tensor<1048576xi32>
  cf.br ^head(%zero, %init : i32, tensor<1048576xi32>)
^head(%i: i32, %acc: tensor<1048576xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%x : tensor<1048576xi32>), ^body
^body:
  %t = arith.addi %acc, %x : tensor<1048576xi32>
  %t0 = tensor.extract %t[%c0] : tensor<1048576xi32>
  %big = arith.cmpi sgt, %t0, %limit : i32
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %big, ^exit(%t : tensor<1048576xi32>), ^cont
^cont:
  %u = arith.addi %t, %t : tensor<1048576xi32>
  cf.br ^head(%i1, %u : i32, tensor<1048576xi32>)
^exit(%r: tensor<1048576xi32>):
  return %r : tensor<1048576xi32>
}
