// An scf.for body yields %t at one position and, at the other, the result
// of an inner scf.while started from %t that may run no iteration (then it
// returns %t itself). Which position holds %t last depends on the inner
// trip count, so neither could own it: reference counting gives %t to its
// own position and passes the other a copy of what it gets where that is
// not owned while %t is, so the copy is made only in runs where the inner
// loop ran no iteration (one per outer iteration with %m = 0, none with
// %m = 2). Before, %t was indeterminate ("carried position 0 of 'scf.for'
// does not own it") and the walk gave no peak (random seeds 2513, 3287).
// The walk follows the inner loop's iterations (an upper bound it states)
// and equals the run's peak either way.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.while
// IR: %[[COPY:.+]]:3 = scf.if %{{.+}} -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint)
// IR: stream.cmd.copy
// IR: scf.yield %[[COPY]]#0,
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,4,3,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound
// WALK: remark: peak live bytes: 80 (inputs 32, allocated 112)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=3 --input=i32=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=80 copies=3
// RUN: ferry-run %t.fvm --stats=%t.2.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=3 --input=i32=2 | FileCheck %s --check-prefix=TWO --match-full-lines
// RUN: %python %S/../check_stats.py %t.2.json live_bytes_at_exit=0 peak_bytes=80 copies=0
// RUN: ferry-run %t.fvm --stats=%t.n.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=0 --input=i32=2 | FileCheck %s --check-prefix=NONE --match-full-lines
// RUN: %python %S/../check_stats.py %t.n.json live_bytes_at_exit=0 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=3 --input=i32=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=80 copies=3
// ZERO: 4xi32=[26 52 78 104]
// TWO: 4xi32=[157 602 1335 2356]
// NONE: 4xi32=[11 22 33 44]
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %n: index, %m: i32) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<4xi32>, tensor<4xi32>) {
    %t = arith.addi %a, %y : tensor<4xi32>
    %w:2 = scf.while (%z = %t, %k = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
      %more = arith.cmpi slt, %k, %m : i32
      scf.condition(%more) %z, %k : tensor<4xi32>, i32
    } do {
    ^bb0(%z2: tensor<4xi32>, %k2: i32):
      %u = arith.muli %y, %y : tensor<4xi32>
      %kn = arith.addi %k2, %k1 : i32
      scf.yield %u, %kn : tensor<4xi32>, i32
    }
    scf.yield %w#0, %t : tensor<4xi32>, tensor<4xi32>
  }
  %o = arith.addi %r#0, %r#1 : tensor<4xi32>
  return %o : tensor<4xi32>
}
