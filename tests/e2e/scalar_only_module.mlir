// A module of scalar functions only (no tensors) declares no devices; its
// functions run on the host alone: ferry-run creates no device, feeds the
// scalars, prints the results, and --stats reports no devices and nothing
// allocated. A loop with a scalar trip count, a branch and a call between
// functions of the module.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP
// DUMP: devices (0):
// RUN: ferry-run %t.fvm --input=i32=5 --stats=%t.json | FileCheck %s --check-prefix=MAIN --match-full-lines
// MAIN: i32=30
// MAIN-EMPTY:
// RUN: %python %S/check_stats.py %t.json --no-devices allocations=0 live_bytes_at_exit=0 peak_bytes=0
// RUN: ferry-run %t.fvm --input=i32=0 | FileCheck %s --check-prefix=ZERO --match-full-lines
// ZERO: i32=-1
// Two results, one written as a 0-d .npy array.
// RUN: ferry-run %t.fvm --function=divmod --input=i64=17 --input=i64=5 --output=@%t.q.npy | FileCheck %s --check-prefix=DIVMOD --match-full-lines
// DIVMOD:      i64=3
// DIVMOD-NEXT: i64=2
// RUN: ferry-run %t.fvm --function=divmod --input=@%t.q.npy --input=i64=2 | FileCheck %s --check-prefix=NPY --match-full-lines
// NPY:      i64=1
// NPY-NEXT: i64=1
// The walk agrees: nothing is allocated.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 0
//
// A function that needs a device still gets a clear error: a --device for
// a device the module does not declare, and a tensor input (here a buffer
// view argument written in the input) with no device to hold it.
// RUN: not ferry-run %t.fvm --input=i32=5 --device=__device_0=local-task 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: ferry-run: error: --device=__device_0=local-task: the module has no device '__device_0' (it declares none)
// RUN: not ferry-run %t.fvm --function=view --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: ferry-run: error: --input=4xi32=1,2,3,4: function 'view' takes a tensor as input 0, but '{{.+}}' declares no devices to hold it (a module declares a device when it has tensors)
func.func @main(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %zero -> i32 {
    %m = arith.constant -1 : i32
    scf.yield %m : i32
  } else {
    // 1 + 2 + ... + n, doubled by a call.
    %sum = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %n) -> i32 : i32 {
      %a = arith.addi %acc, %i : i32
      scf.yield %a : i32
    }
    %d = func.call @double(%sum) : (i32) -> i32
    scf.yield %d : i32
  }
  return %r : i32
}
func.func private @double(%x: i32) -> i32 {
  %s = arith.addi %x, %x : i32
  return %s : i32
}
func.func @divmod(%a: i64, %b: i64) -> (i64, i64) {
  %q = arith.divsi %a, %b : i64
  %r = arith.remsi %a, %b : i64
  return %q, %r : i64, i64
}
func.func @view(%v: !hal.buffer_view) -> !hal.buffer_view {
  return %v : !hal.buffer_view
}
