// Nested regions in hand-written stage-1 async IR: a loop inside a loop
// (N x M additions into one carried resource, in place) and an scf.if
// inside a loop (odd iterations add the input, even ones multiply by it),
// on local-sync and local-task.
// Nothing is live at exit (reference counting through regions).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.stats.json --function=nested_for --input=4xi32=1,2,3,4 --input=index=3 --input=index=5 | FileCheck %s --check-prefix=FOR --match-full-lines
// RUN: %python %S/../check_stats.py %t.stats.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=nested_for --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=index=3 --input=index=5 | FileCheck %s --check-prefix=FOR --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=48
// FOR:      4xi32=[15 30 45 60]
// FOR-EMPTY:
// 1 -> *x -> +x -> *x -> +x: x=2: 1,2,4,8,10; x=3: 1,3,6,18,21.
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=if_in_for --input=2xi32=2,3 --input=index=4 | FileCheck %s --check-prefix=IF --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=24
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --function=if_in_for --device=__device_0=local-task --input=2xi32=2,3 --input=index=4 | FileCheck %s --check-prefix=IF --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=24
// Peak equals the liveness walk's for any trip counts (one iteration of each
// loop plus what it carries; the larger branch of the if).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// WALK-NEXT: func.func @nested_for
// WALK: remark: peak live bytes: 24 (inputs 8, allocated 16)
// WALK-NEXT: func.func @if_in_for
// IF:      2xi32=[10 21]
// IF-EMPTY:

func.func @nested_for(%view: !hal.buffer_view, %n: index, %m: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c0_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %a{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %inner : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

func.func @if_in_for(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<2xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<2xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %parity = arith.remui %i, %c2 : index
    %odd = arith.cmpi eq, %parity, %c1 : index
    %y = scf.if %odd -> (!stream.resource<*>) {
      %a = stream.async.dispatch kernel("add") type(i32) count(%c2) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
      scf.yield %a : !stream.resource<*>
    } else {
      %m = stream.async.dispatch kernel("mul") type(i32) count(%c2) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
      scf.yield %m : !stream.resource<*>
    }
    scf.yield %y : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<2xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
