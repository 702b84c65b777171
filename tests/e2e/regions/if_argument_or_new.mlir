// An scf.if yielding a new tensor in one branch and the function's argument
// in the other: its result is the program's to free on one path only, so
// reference counting carries an i1 owned flag as a second result (set by the
// branch that allocates) and frees the result after its last use where the
// flag is set. Before, the result was "indeterminate". The walk cannot
// evaluate the condition, so it follows the branch that leaves the most live
// (its flag set, the free frees) and says it is an upper bound: the larger
// branch's peak, 48 bytes.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: %[[R:.+]]:4 = scf.if %{{.+}} -> (!stream.resource<external>, i1, !stream.timepoint, !stream.timepoint)
// IR: stream.resource.dealloca origin if(%[[R]]#1) {{.*}} %[[R]]#0
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound: the walk cannot tell which region of 'scf.if' runs
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.then.json --input=4xi32=1,2,3,4 --input=i1=1 | FileCheck %s --check-prefix=THEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.then.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --stats=%t.else.json --input=4xi32=1,2,3,4 --input=i1=0 | FileCheck %s --check-prefix=ELSE --match-full-lines
// RUN: %python %S/../check_stats.py %t.else.json live_bytes_at_exit=0 peak_bytes=32 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=i1=1 | FileCheck %s --check-prefix=THEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=48
// THEN: 4xi32=[4 12 24 40]
// ELSE: 4xi32=[2 6 12 20]
func.func @main(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %r = scf.if %c -> tensor<4xi32> {
    %y = arith.addi %x, %x : tensor<4xi32>
    scf.yield %y : tensor<4xi32>
  } else {
    scf.yield %x : tensor<4xi32>
  }
  %z = arith.muli %r, %x : tensor<4xi32>
  %w = arith.addi %z, %r : tensor<4xi32>
  return %w : tensor<4xi32>
}
