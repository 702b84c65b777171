// A loop that may run no iteration returns its initial value %t as it came,
// while %t is read after the loop by an op that may write its result into
// a dying operand's storage. With no iteration the loop's result is %t
// itself, so %t is not dying there: writing %w (and %z) into it would
// change the returned values. The reverted owned flags (branch carried2)
// did: with n = 0 the first result was [0 0] (random seed 358, reduced).
// With the flags, %w gets a buffer of its own (the loop, sharing %t
// uncopied, makes each iteration's value anew) and the returned %l#0 is
// copied: 80 bytes at the peak for n = 0.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2xf64=3,4 --input=2xf64=1,1 --input=index=0 --stats=%t.0.json | FileCheck %s --check-prefix=NONE
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=80
// RUN: ferry-run %t.fvm --input=2xf64=3,4 --input=2xf64=1,1 --input=index=1 --device=__device_0=local-task --stats=%t.1.json | FileCheck %s --check-prefix=ONE
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --input=2xf64=3,4 --input=2xf64=1,1 --input=index=3 --stats=%t.3.json | FileCheck %s --check-prefix=THREE
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0
// With no iteration the peak equals the walk given n = 0.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2,2,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 80 (inputs 32, allocated 48)
// NONE: 2xf64=[9 16]
// NONE-NEXT: 2xf64=[0 0]
// ONE: 2xf64=[8 15]
// ONE-NEXT: 2xf64=[0 0]
// THREE: 2xf64=[6 13]
// THREE-NEXT: 2xf64=[0 0]
func.func @main(%a: tensor<2xf64>, %b: tensor<2xf64>, %n: index) -> (tensor<2xf64>, tensor<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.mulf %a, %a : tensor<2xf64>
  %l:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %t, %y = %b) -> (tensor<2xf64>, tensor<2xf64>) {
    %u = arith.subf %x, %b : tensor<2xf64>
    %v = arith.mulf %y, %y : tensor<2xf64>
    scf.yield %u, %v : tensor<2xf64>, tensor<2xf64>
  }
  %w = arith.subf %l#1, %t : tensor<2xf64>
  %z = arith.subf %w, %w : tensor<2xf64>
  return %l#0, %z : tensor<2xf64>, tensor<2xf64>
}
