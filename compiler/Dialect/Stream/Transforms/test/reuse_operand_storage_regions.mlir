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

// -----

// A loop's init read again after the loop, shared uncopied (nothing writes
// either side): with no iteration the loop's result is the init itself, and
// it is read after the add, so the add does not write into the init.
// CHECK-LABEL: func.func @for_result_may_be_init
// CHECK: %[[T:.+]] = stream.async.dispatch kernel("mul")
// CHECK: %[[L:.+]] = scf.for
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[T]], %{{.+}}) : {{.+}} -> !stream.resource<*>{
// CHECK: stream.resource.load %[[L]]
func.func @for_result_may_be_init(%n: index, %x: !stream.resource<*>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %t = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  %w = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%t, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %e = stream.resource.load %l[%c0] : !stream.resource<*>{%s} -> i32
  %f = stream.resource.load %w[%c0] : !stream.resource<*>{%s} -> i32
  %r = arith.addi %e, %f : i32
  return %r : i32
}

// -----

// The same where the op that would write into the init also reads the
// loop's result (the init itself with no iteration, under another name).
// CHECK-LABEL: func.func @for_result_read_by_writer
// CHECK: scf.for
// CHECK: stream.async.dispatch kernel("add") {{.+}} -> !stream.resource<*>{
// CHECK-NOT: -> %
// CHECK: return
func.func @for_result_read_by_writer(%n: index, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %t = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%acc, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%c4) (%l, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// A branch that yields a value makes the if's result that value: an op
// after the if that writes the value while the result is still read would
// change the result.
// CHECK-LABEL: func.func @if_result_may_be_captured
// CHECK: %[[T:.+]] = stream.async.dispatch kernel("mul")
// CHECK: scf.if
// CHECK: } else {
// CHECK: scf.yield %[[T]]
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[T]], %{{.+}}) : {{.+}} -> !stream.resource<*>{
func.func @if_result_may_be_captured(%c: i1, %x: !stream.resource<*>) -> i32 {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %t = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %b = scf.if %c -> !stream.resource<*> {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%t, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    scf.yield %t : !stream.resource<*>
  }
  %w = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%t, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %e = stream.resource.load %b[%c0] : !stream.resource<*>{%s} -> i32
  %f = stream.resource.load %w[%c0] : !stream.resource<*>{%s} -> i32
  %r = arith.addi %e, %f : i32
  return %r : i32
}
