// An scf.while nested in another's after region, starting from the outer
// after-region argument %a, which the outer body reads again after it: the
// inner positions hold %a (not theirs to free) before the first inner
// iteration and a new allocation after each, so reference counting carries
// an owned flag through the inner while (its before-region argument, and
// the after-region argument and result the condition passes it to) and
// frees each value where its flag is set. Before, those positions were
// indeterminate and the walk saw the outer loop grow each iteration (random
// seed 2 with indeterminate_carried). The walk counts a second inner
// iteration (the first changes the flags), an upper bound it states; equal
// to the run's from two outer iterations on.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.while {{.+}} -> (!stream.resource<external>, i32, !stream.timepoint, !stream.timepoint)
// IR: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %[[OWN:[a-z_0-9]+]] = %false,
// IR: stream.resource.dealloca {{.*}}if(%{{.+}})
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound
// WALK: remark: peak live bytes: 64 (inputs 16, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=i32=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.1.json --input=4xi32=1,2,3,4 --input=i32=1 | FileCheck %s --check-prefix=ONE --match-full-lines
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.3.json --input=4xi32=1,2,3,4 --input=i32=3 | FileCheck %s --check-prefix=THREE --match-full-lines
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 peak_bytes=64
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=i32=3 | FileCheck %s --check-prefix=THREE --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=64
// ZERO: 4xi32=[1 2 3 4]
// ONE: 4xi32=[1 4 9 16]
// THREE: 4xi32=[16 4096 104976 1048576]
func.func @main(%x: tensor<4xi32>, %n: i32) -> tensor<4xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%acc = %x, %i = %c0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %acc, %i : tensor<4xi32>, i32
  } do {
  ^bb0(%a: tensor<4xi32>, %j: i32):
    %in:2 = scf.while (%b = %a, %k = %c0) : (tensor<4xi32>, i32) -> (tensor<4xi32>, i32) {
      %m = arith.cmpi slt, %k, %j : i32
      scf.condition(%m) %b, %k : tensor<4xi32>, i32
    } do {
    ^bb0(%b2: tensor<4xi32>, %k2: i32):
      %y = arith.addi %b2, %b2 : tensor<4xi32>
      %k3 = arith.addi %k2, %c1 : i32
      scf.yield %y, %k3 : tensor<4xi32>, i32
    }
    %z = arith.muli %in#0, %a : tensor<4xi32>
    %j2 = arith.addi %j, %c1 : i32
    scf.yield %z, %j2 : tensor<4xi32>, i32
  }
  return %r#0 : tensor<4xi32>
}
