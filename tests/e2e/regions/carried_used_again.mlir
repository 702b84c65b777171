// A loop whose initial value is still used after it (and read in its body):
// the carried position holds that value on entry (not the loop's to free)
// and a new allocation from each iteration on (the loop's), so reference
// counting carries an i1 owned flag beside it and frees each value only
// where its flag is set. Before, the position was "indeterminate" (its
// allocations never freed by the program) and the walk gave no peak. The
// peak is bounded whatever the trip count (48, 64, 64, 64 bytes for 0, 1, 2
// and 3 iterations: the add after the loop makes a new buffer, as with no
// iteration %l is %y0, which it also reads); the walk counts two iterations (the second frees what
// the first kept), an upper bound it states for a dynamic trip count, and
// equal to the run's from two iterations on.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %[[OWN:[^ ]+]] = %false,
// IR: stream.resource.dealloca {{.*}}if(%[[OWN]])
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound
// WALK: remark: peak live bytes: 64 (inputs 16, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=index=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --stats=%t.1.json --input=4xi32=1,2,3,4 --input=index=1 | FileCheck %s --check-prefix=ONE --match-full-lines
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 peak_bytes=64 copies=0
// RUN: ferry-run %t.fvm --stats=%t.3.json --input=4xi32=1,2,3,4 --input=index=3 | FileCheck %s --check-prefix=THREE --match-full-lines
// RUN: %python %S/../check_stats.py %t.3.json live_bytes_at_exit=0 peak_bytes=64 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.task.json --input=4xi32=1,2,3,4 --input=index=3 | FileCheck %s --check-prefix=THREE --match-full-lines
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=64
// ZERO: 4xi32=[4 8 12 16]
// ONE: 4xi32=[6 20 42 72]
// THREE: 4xi32=[18 260 1302 4104]
func.func @main(%x: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %y0 = arith.addi %x, %x : tensor<4xi32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y0) -> tensor<4xi32> {
    %m = arith.muli %acc, %y0 : tensor<4xi32>
    scf.yield %m : tensor<4xi32>
  }
  %z = arith.addi %l, %y0 : tensor<4xi32>
  return %z : tensor<4xi32>
}
