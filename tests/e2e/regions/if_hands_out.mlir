// A value made before an scf.if that one branch yields as its result (its
// last use) and the other only reads: the if's result owns it, and the
// branch that does not yield it frees it at its end. Before, the result was
// "indeterminate" (its memory went with the last reference, which the VM
// drops when the register does), and the run's peak went above the walk's.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.if
// IR: scf.yield %[[Y:[a-z_0-9]+]],
// IR: } else {
// IR: stream.resource.dealloca {{.*}}%[[Y]] :
// IR: scf.yield
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.then.json --input=4xi32=1,2,3,4 --input=i1=1 | FileCheck %s --check-prefix=THEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.then.json live_bytes_at_exit=0 peak_bytes=32 copies=0
// RUN: ferry-run %t.fvm --stats=%t.else.json --input=4xi32=1,2,3,4 --input=i1=0 | FileCheck %s --check-prefix=ELSE --match-full-lines
// RUN: %python %S/../check_stats.py %t.else.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=i1=0 | FileCheck %s --check-prefix=ELSE --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=48
// THEN: 4xi32=[6 7 8 9]
// ELSE: 4xi32=[6 6 6 6]
func.func @main(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %k = arith.constant 5 : i32
  %f = linalg.fill ins(%k : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %y = arith.addi %f, %x : tensor<4xi32>
  %r = scf.if %c -> tensor<4xi32> {
    scf.yield %y : tensor<4xi32>
  } else {
    // Only reads %y (an element of it): an elementwise op on %y would
    // write its result over %y, which dies there.
    %c0 = arith.constant 0 : index
    %v = tensor.extract %y[%c0] : tensor<4xi32>
    %w = tensor.splat %v : tensor<4xi32>
    scf.yield %w : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
