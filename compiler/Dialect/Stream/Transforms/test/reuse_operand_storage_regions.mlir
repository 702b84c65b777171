// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage | FileCheck %s

// An elementwise dispatch on a loop-carried value that dies there writes in
// place into the iter_arg: no allocation per iteration.
// CHECK-LABEL: func.func @for_iter_arg
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}}(%[[ACC]], %{{.+}}) : {{.+}} -> %[[ACC]]{
func.func @for_iter_arg(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A value captured from outside the loop is read again next iteration: the
// dispatch gets a new result.
// CHECK-LABEL: func.func @for_captured
// CHECK: scf.for
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> !stream.resource<*>{
func.func @for_captured(%n: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  scf.for %i = %c0 to %n step %c1 {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    %e = stream.resource.load %y[%c0] : !stream.resource<*>{%s} -> i32
  }
  return
}

// -----

// The iter_arg's init is the host's: the loop's storage is not the
// program's to write, so no tie.
// CHECK-LABEL: func.func @for_import_init
// CHECK: scf.for
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> !stream.resource<external>{
func.func @for_import_init(%n: index, %view: !hal.buffer_view, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<external>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
    scf.yield %y : !stream.resource<external>
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%c4) (%r, %x) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}
