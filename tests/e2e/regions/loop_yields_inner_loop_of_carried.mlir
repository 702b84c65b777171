// Random seeds 300, 312, 457 (reduced): an outer loop's carried value (a
// constant at first, so owned flags) is read by an inner loop that starts
// from it, and the outer body yields the inner loop's result. Where the
// inner loop runs no iteration that result is the outer value itself (its
// flag clear); otherwise a new allocation. Reference counting passes the
// outer value on under the inner flag ("inner or outer flag") and frees it
// in the body only where it is owned and the inner flag is set. Before, the
// outer value was indeterminate there and never freed: the run left bytes
// live and the walk gave no peak. Every trip count frees everything, and
// peaks where the walk says.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.for {{.+}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[OWN:[^ ]+]] = %{{[^ ]+}},
// IR: %[[IN:.+]]:4 = scf.for
// IR: %[[FREE:.+]] = arith.andi %[[OWN]], %[[IN]]#1 : i1
// IR: stream.resource.dealloca {{.*}}if(%[[FREE]]) {{.*}}%[[ACC]] :
// IR: %[[PASS:.+]] = arith.ori %[[IN]]#1, %[[OWN]] : i1
// IR: scf.yield %[[IN]]#0, %[[PASS]],
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=index=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --stats=%t.1.json --input=4xi32=1,2,3,4 --input=index=1 | FileCheck %s --check-prefix=MORE --match-full-lines
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --stats=%t.3.json --input=4xi32=1,2,3,4 --input=index=3 | FileCheck %s --check-prefix=MORE --match-full-lines
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=index=2 | FileCheck %s --check-prefix=MORE --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=48
// ZERO: 4xi32=[2 3 4 5]
// MORE: 4xi32=[17 18 19 20]
func.func @main(%x: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y0 = arith.constant dense<1> : tensor<4xi32>
  %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y0) -> tensor<4xi32> {
    %l2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> tensor<4xi32> {
      %t = arith.addi %acc, %acc : tensor<4xi32>
      scf.yield %t : tensor<4xi32>
    }
    scf.yield %l2 : tensor<4xi32>
  }
  %r = arith.addi %l, %x : tensor<4xi32>
  return %r : tensor<4xi32>
}
