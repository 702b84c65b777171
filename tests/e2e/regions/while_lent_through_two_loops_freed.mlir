// @f's outer while carries %x; from its second iteration on %x is owned
// (what the inner loops made). Each iteration lends %x to %w1 (which reads
// it in its body), and %w1's result, which is %x where %w1 ran no
// iteration, to %w2 (which reads it too); the iteration yields %w2#0. So
// %x is passed on only where neither inner loop made a new value, and must
// be freed after them where either did. Before, reference counting
// recorded only %w2's flag as "holds something else", refused the second
// position on the way (%x passed to %w2 inside %w1#0, lent), and left %x to
// be reclaimed at its last reference: the walk found an iteration that
// leaves 16 bytes more live and gave no peak (random seed 10681). Now %x is
// freed under its flag and "%w2 or %w1 made a new value", and the outer
// yield's flag is the disjunction of what the two escaping values need.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR-LABEL: func.func private @f(
// IR: scf.while
// IR: ^bb0(%[[X:[a-z0-9_]+]]: !stream.resource<external>, %{{[a-z0-9_]+}}: i32, %[[XF:[a-z0-9_]+]]: i1,
// IR: %[[W1:[0-9]+]]:5 = scf.while
// IR: %[[W2:[0-9]+]]:5 = scf.while (%{{[a-z0-9_]+}} = %[[W1]]#0,
// IR: %[[ELSE:[0-9]+]] = arith.ori %[[W2]]#2, %[[W1]]#2 : i1
// IR: %[[C:[0-9]+]] = arith.andi %[[XF]], %[[ELSE]] : i1
// IR: stream.resource.dealloca origin if(%[[C]]) await(%{{[0-9]+}}) %[[X]] :
// IR: scf.yield %[[W2]]#0,
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,1,1,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 96 (inputs 16, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.222.json --input=4xi32=1,2,3,4 --input=i32=2 --input=i32=2 --input=i32=2 | FileCheck %s --check-prefix=NINE --match-full-lines
// RUN: %python %S/../check_stats.py %t.222.json live_bytes_at_exit=0 peak_bytes=96 allocations=15 deallocations=15 copies=1
// RUN: ferry-run %t.fvm --stats=%t.301.json --input=4xi32=1,2,3,4 --input=i32=3 --input=i32=0 --input=i32=1 | FileCheck %s --check-prefix=SIXTEEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.301.json live_bytes_at_exit=0 copies=1
// RUN: ferry-run %t.fvm --stats=%t.210.json --input=4xi32=1,2,3,4 --input=i32=2 --input=i32=1 --input=i32=0 | FileCheck %s --check-prefix=THREE --match-full-lines
// RUN: %python %S/../check_stats.py %t.210.json live_bytes_at_exit=0 copies=1
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=i32=3 --input=i32=2 --input=i32=1 | FileCheck %s --check-prefix=SIX --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=1
// NINE: 4xi32=[9 9 9 9]
// SIXTEEN: 4xi32=[16 32 48 64]
// THREE: 4xi32=[3 3 3 3]
// SIX: 4xi32=[6 6 6 6]
func.func private @f(%s: tensor<4xi32>, %n: i32, %m: i32, %p: i32) -> tensor<4xi32> {
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %w:2 = scf.while (%x = %s, %k = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
    %more = arith.cmpi slt, %k, %n : i32
    scf.condition(%more) %x, %k : tensor<4xi32>, i32
  } do {
  ^bb0(%x: tensor<4xi32>, %k: i32):
    %w1:2 = scf.while (%y = %x, %j = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
      %more = arith.cmpi slt, %j, %m : i32
      scf.condition(%more) %y, %j : tensor<4xi32>, i32
    } do {
    ^bb0(%y: tensor<4xi32>, %j: i32):
      %t0 = arith.subi %y, %x : tensor<4xi32>
      %t = arith.constant dense<3> : tensor<4xi32>
      %j1 = arith.addi %j, %k1 : i32
      scf.yield %t, %j1 : tensor<4xi32>, i32
    }
    %w2:2 = scf.while (%z = %w1#0, %i = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
      %more = arith.cmpi slt, %i, %p : i32
      scf.condition(%more) %z, %i : tensor<4xi32>, i32
    } do {
    ^bb0(%z: tensor<4xi32>, %i: i32):
      %v = arith.addi %z, %w1#0 : tensor<4xi32>
      %i1 = arith.addi %i, %k1 : i32
      scf.yield %v, %i1 : tensor<4xi32>, i32
    }
    %k2 = arith.addi %k, %k1 : i32
    scf.yield %w2#0, %k2 : tensor<4xi32>, i32
  }
  return %w#0 : tensor<4xi32>
}
func.func @main(%a: tensor<4xi32>, %n: i32, %m: i32, %p: i32) -> tensor<4xi32> {
  %s = arith.addi %a, %a : tensor<4xi32>
  %r = call @f(%s, %n, %m, %p) : (tensor<4xi32>, i32, i32, i32) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
