// An scf.while that stops on a value read back on the host (hand-written
// stage-1 async IR): the condition's stream.resource.load awaits the
// carried timepoint, so it sees the previous iteration's dispatch.
// 1 + 3k < limit: the loop adds the input (3) until the value reaches it.
// Nothing is live at exit (reference counting through regions).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.stats.json --input=1xi32=3 --input=i32=10 | FileCheck %s --check-prefix=TEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.stats.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=1xi32=3 --input=i32=0 | FileCheck %s --check-prefix=NONE --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --device=__device_0=local-task --input=1xi32=3 --input=i32=10 | FileCheck %s --check-prefix=TEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --device=__device_0=local-task --input=1xi32=3 --input=i32=1000 | FileCheck %s --check-prefix=THOUSAND --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=12
// Peak equals the liveness walk's for any number of iterations (the before
// region and the after region once each).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 12 (inputs 4, allocated 8)
// WALK-NEXT: func.func @main
// TEN:      1xi32=[10]
// TEN-EMPTY:
// NONE:      1xi32=[1]
// NONE-EMPTY:
// THOUSAND:      1xi32=[1000]
// THOUSAND-EMPTY:

func.func @main(%view: !hal.buffer_view, %limit: i32) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<1xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<1xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.while (%acc = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    %v = stream.resource.load %acc[%c0] : !stream.resource<*>{%s} -> i32
    %go = arith.cmpi slt, %v, %limit : i32
    scf.condition(%go) %acc : !stream.resource<*>
  } do {
  ^bb0(%a: !stream.resource<*>):
    %y = stream.async.dispatch kernel("add") type(i32) count(%c1) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<1xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
