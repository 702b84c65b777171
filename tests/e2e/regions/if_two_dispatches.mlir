// An scf.if choosing between two dispatches (hand-written stage-1 async
// IR): each branch allocates and writes its result, yielding it with its
// timepoint; the host reads the chosen one after the if's carried fence.
// Nothing is live at exit (reference counting through regions).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.stats.json --input=4xi32=1,2,3,4 --input=i1=1 | FileCheck %s --check-prefix=ADD --match-full-lines
// RUN: %python %S/../check_stats.py %t.stats.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=4xi32=1,2,3,4 --input=i1=0 | FileCheck %s --check-prefix=MUL --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=i1=1 | FileCheck %s --check-prefix=ADD --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=i1=0 | FileCheck %s --check-prefix=MUL --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=32
// Peak equals the liveness walk's (the larger branch).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @main
// ADD:      4xi32=[2 4 6 8]
// ADD-NEXT: i32=8
// ADD-EMPTY:
// MUL:      4xi32=[1 4 9 16]
// MUL-NEXT: i32=16
// MUL-EMPTY:

func.func @main(%view: !hal.buffer_view, %c: i1) -> (!hal.buffer_view, i32) {
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.if %c -> (!stream.resource<external>) {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.yield %a : !stream.resource<external>
  } else {
    %m = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
    scf.yield %m : !stream.resource<external>
  }
  %last = stream.resource.load %r[%c12] : !stream.resource<external>{%s} -> i32
  %out = stream.tensor.export %r : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out, %last : !hal.buffer_view, i32
}
