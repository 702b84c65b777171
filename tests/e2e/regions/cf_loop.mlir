// A loop written as cf blocks carrying a tensor: lifted to scf at import,
// then the same path as scf.for. The input is the host's, so the carried
// position gets one copy of it (never one per iteration), updated in place
// (the lifted loop passes the accumulator out on the exit path only, so no
// allocation per iteration either: the input and its copy are the peak);
// nothing is live at exit and peak_bytes equals the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=i32=0 --stats=%t.0.json | FileCheck %s --check-prefix=N0 --match-full-lines
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=i32=3 --stats=%t.3.json | FileCheck %s --check-prefix=N3 --match-full-lines
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=i32=3 | FileCheck %s --check-prefix=N3 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=32
// N0: 4xi32=[1 2 3 4]
// N3: 4xi32=[4 8 12 16]
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=1 allocations=2 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 copies=1 allocations=2 peak_bytes=32
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
func.func @main(%x: tensor<4xi32>, %n: i32) -> tensor<4xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^head(%zero, %x : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = arith.addi %acc, %x : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit:
  return %acc : tensor<4xi32>
}
