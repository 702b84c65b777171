// The inner scf.if writes %t in place in one branch and %m in the other and
// yields the one it wrote, lent (neither is owned by its result), and the
// function returns it. Which of the two the caller gets is not known
// statically (no owned flag says it), so neither can be handed over or
// freed by a dealloca: both are indeterminate, with a remark, and their
// memory goes back with the last reference. Before, both were handed to the
// caller on every way: the one not returned, and both where the outer
// else branch ran, were freed by nothing the program said
// (reclaimed_at_last_reference 2; random seed 3).
// RUN: ferry-compile %s --compile-to=stream-cmd -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: remark: resource returned to the caller is indeterminate: it may be what a position it was lent to holds, and that position may hold another value the program does not own there
// RUN: ferry-compile %s -o %t.fvm 2>/dev/null
// RUN: ferry-run %t.fvm --stats=%t.00.json --input=4xi32=1,2,3,4 --input=i1=0 --input=i1=0 | FileCheck %s --check-prefix=FIVE --match-full-lines
// RUN: %python %S/../check_stats.py %t.00.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 peak_bytes=64 copies=0
// RUN: ferry-run %t.fvm --stats=%t.10.json --input=4xi32=1,2,3,4 --input=i1=1 --input=i1=0 | FileCheck %s --check-prefix=M --match-full-lines
// RUN: %python %S/../check_stats.py %t.10.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.11.json --input=4xi32=1,2,3,4 --input=i1=1 --input=i1=1 | FileCheck %s --check-prefix=T --match-full-lines
// RUN: %python %S/../check_stats.py %t.11.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 copies=0
// FIVE: 4xi32=[5 5 5 5]
// M: 4xi32=[2 6 12 20]
// T: 4xi32=[1 0 -3 -8]
func.func @main(%a: tensor<4xi32>, %c: i1, %d: i1) -> tensor<4xi32> {
  %t = arith.addi %a, %a : tensor<4xi32>
  %m = arith.muli %a, %a : tensor<4xi32>
  %r = scf.if %c -> (tensor<4xi32>) {
    %in = scf.if %d -> (tensor<4xi32>) {
      %u = arith.subi %t, %m : tensor<4xi32>
      scf.yield %u : tensor<4xi32>
    } else {
      %v = arith.addi %m, %a : tensor<4xi32>
      scf.yield %v : tensor<4xi32>
    }
    scf.yield %in : tensor<4xi32>
  } else {
    %w = arith.constant dense<5> : tensor<4xi32>
    scf.yield %w : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
