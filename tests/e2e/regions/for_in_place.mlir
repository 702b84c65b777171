// An scf.for adding into a loop-carried resource in place N times, N a
// scalar argument, written as hand-written stage-1 async IR (the import
// leaves a function already in the stream dialect alone): scheduled with a
// carried timepoint per iteration, lowered to HAL through the loop and to
// bytecode branches. N = 0 returns the initial splat.
// Nothing is live at exit (reference counting through regions).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.stats.json --input=4xi32=1,2,3,4 --input=index=0 | FileCheck %s --check-prefix=N0 --match-full-lines
// RUN: %python %S/../check_stats.py %t.stats.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=4xi32=1,2,3,4 --input=index=1 | FileCheck %s --check-prefix=N1 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --input=4xi32=1,2,3,4 --input=index=1000 | FileCheck %s --check-prefix=N1000 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=index=0 | FileCheck %s --check-prefix=N0 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc3.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=index=1 | FileCheck %s --check-prefix=N1 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc3.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc4.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=index=1000 | FileCheck %s --check-prefix=N1000 --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc4.json live_bytes_at_exit=0 peak_bytes=48
// Peak equals the liveness walk's, for any trip count (one iteration's peak
// plus what the loop carries).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// WALK-NEXT: func.func @main
// N0:      4xi32=[10 10 10 10]
// N0-EMPTY:
// N1:      4xi32=[11 12 13 14]
// N1-EMPTY:
// N1000:      4xi32=[1010 2010 3010 4010]
// N1000-EMPTY:

func.func @main(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10_i32 = arith.constant 10 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c10_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
