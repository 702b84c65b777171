// A while's before region passes its argument %x on through an scf.if, so
// where the branch yielding %x ran (%c = 1), or no iteration, its result
// %w#0 is the init %t itself. A second while then starts from %t and reads
// %w#0 in every iteration. %t's last use is that second loop, but %w#0,
// which may be %t, is used inside it: the second loop must not own %t.
// Before, reference counting followed what %t was lent to only through
// ops of %t's own block, missed the scf.if inside the first while, gave
// %t to the second loop, which freed it after its first iteration, and the
// second iteration read freed memory ("already deallocated", random seed
// 6172). Now the second loop frees what it carries only where it owns it
// (not %t), and %t is freed after it.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.while
// IR: scf.while
// IR: stream.cmd.dispatch
// IR-NOT: scf.condition
// IR: stream.resource.dealloca origin if(
// IR: scf.condition
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,4,1,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 80 (inputs 32, allocated 48)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.1.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=i32=1 --input=i1=1 | FileCheck %s --check-prefix=SAME --match-full-lines
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 peak_bytes=80 copies=0
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=i32=0 --input=i1=0 | FileCheck %s --check-prefix=SQUARE --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=i32=0 --input=i1=1 | FileCheck %s --check-prefix=SAME --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=80 copies=0
// SAME: 4xi32=[44 88 132 176]
// SQUARE: 4xi32=[374 1474 3300 5852]
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %m: i32, %c: i1) -> tensor<4xi32> {
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %k2 = arith.constant 2 : i32
  %t = arith.addi %a, %b : tensor<4xi32>
  %w:2 = scf.while (%x = %t, %k = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
    %more = arith.cmpi slt, %k, %m : i32
    %s = scf.if %c -> (tensor<4xi32>) {
      scf.yield %x : tensor<4xi32>
    } else {
      %u = arith.muli %x, %x : tensor<4xi32>
      scf.yield %u : tensor<4xi32>
    }
    scf.condition(%more) %s, %k : tensor<4xi32>, i32
  } do {
  ^bb0(%y: tensor<4xi32>, %j: i32):
    %jn = arith.addi %j, %k1 : i32
    scf.yield %y, %jn : tensor<4xi32>, i32
  }
  // Three runs of the before region: %r = %t + 3 * %w#0.
  %v:2 = scf.while (%z = %t, %i = %k0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
    %more = arith.cmpi slt, %i, %k2 : i32
    %r = arith.addi %z, %w#0 : tensor<4xi32>
    scf.condition(%more) %r, %i : tensor<4xi32>, i32
  } do {
  ^bb0(%z2: tensor<4xi32>, %i2: i32):
    %in = arith.addi %i2, %k1 : i32
    scf.yield %z2, %in : tensor<4xi32>, i32
  }
  return %v#0 : tensor<4xi32>
}
