// A function of the module returns a loop's result, which is its argument
// when the loop runs no iteration: its caller takes ownership of each
// result, so the callee copies that result before returning it (one copy
// per call, none per iteration). Before, a zero-trip loop handed the
// caller's own buffer back and the caller freed it twice ("was already
// deallocated", random test seed 36 with indeterminate_carried).
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR-LABEL: func.func private @repeat(
// IR: %[[L:.+]]:4 = scf.for
// IR: stream.cmd.copy %[[L]]#0
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 64 (inputs 16, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=index=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=48 copies=1
// RUN: ferry-run %t.fvm --stats=%t.2.json --input=4xi32=1,2,3,4 --input=index=2 | FileCheck %s --check-prefix=TWO --match-full-lines
// RUN: %python %S/../check_stats.py %t.2.json live_bytes_at_exit=0 peak_bytes=64 copies=1
// ZERO: 4xi32=[4 16 36 64]
// TWO: 4xi32=[16 64 144 256]
func.func private @repeat(%a: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    %y = arith.addi %acc, %acc : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
func.func @main(%x: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %y = arith.addi %x, %x : tensor<4xi32>
  %r = call @repeat(%y, %n) : (tensor<4xi32>, index) -> tensor<4xi32>
  %z = arith.muli %r, %y : tensor<4xi32>
  return %z : tensor<4xi32>
}
