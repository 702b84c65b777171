// RUN: ferry-opt %s --split-input-file --stream-elide-async-copies | FileCheck %s

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// Real data read after the tied call: the copy is kept. The same call on
// data never read again (%y) writes into it directly.
// CHECK-LABEL: func.func @read_after
// CHECK: %[[CLONE:.+]] = stream.async.clone %[[X:.+]] :
// CHECK: stream.async.call @write(%{{.+}}, %[[CLONE]])
// CHECK: %[[Y:.+]] = stream.async.dispatch kernel("add") {{.+}} (%[[X]], %[[X]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[Y]]) : {{.+}} -> (%[[Y]]{%{{.+}}})
func.func @read_after(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %c) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%c{%s})
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %cy = stream.async.clone %y : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %ry = stream.async.call @write(%a, %cy) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%cy{%s})
  return %r, %ry : !stream.resource<*>, !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// Read before the copy, never after: the call writes into the value itself.
// CHECK-LABEL: func.func @read_before
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[X]], %[[X]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[X]]) : {{.+}} -> (%[[X]]{%{{.+}}})
func.func @read_before(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %c) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%c{%s})
  return %r, %y : !stream.resource<*>, !stream.resource<*>
}

// -----

// A host import is never written in place, even at its last use; a value
// the program computed is, at its last use.
// CHECK-LABEL: func.func @import_kept
// CHECK: %[[I:.+]] = stream.tensor.import
// CHECK: %[[C:.+]] = stream.async.clone %[[I]]
// CHECK: stream.async.fill %{{.+}}, %[[C]]
// CHECK: %[[D:.+]] = stream.async.dispatch
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.fill %{{.+}}, %[[D]]
func.func @import_kept(%view: !hal.buffer_view, %s: index) -> !stream.resource<*> {
  %i = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %c = stream.async.clone %i : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %c : i32 -> !stream.resource<external>{%s}
  %d = stream.async.dispatch kernel("add") type(i32) count(%s) (%f, %f) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %cd = stream.async.clone %d : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %fd = stream.async.fill %v, %cd : i32 -> !stream.resource<*>{%s}
  return %fd : !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A tied block argument: the clone goes only when every caller passes a last
// use of storage it may write. @callee_ok's only caller does; @callee_kept has
// a caller that reads its value afterwards.
// CHECK-LABEL: func.func private @callee_ok
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.fill %{{.+}}, %arg0
// CHECK-LABEL: func.func private @callee_kept
// CHECK: %[[C:.+]] = stream.async.clone %arg0
// CHECK: stream.async.fill %{{.+}}, %[[C]]
// CHECK-LABEL: func.func @callers
func.func private @callee_ok(%arg: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c = stream.async.clone %arg : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %v = arith.constant 1 : i32
  %r = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  return %r : !stream.resource<*>
}
func.func private @callee_kept(%arg: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c = stream.async.clone %arg : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %r = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  return %r : !stream.resource<*>
}
func.func @callers(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %r1 = stream.async.call @callee_ok(%x) : (!stream.resource<*>{%s}) -> (!stream.resource<*>{%s})
  %y = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %r2 = stream.async.call @callee_kept(%y) : (!stream.resource<*>{%s}) -> (!stream.resource<*>{%s})
  %r3 = stream.async.dispatch kernel("add") type(i32) count(%s) (%y, %y) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %r1, %r2, %r3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// Regions: a clone inside a loop of a value defined outside it is kept (the
// next iteration reads the value again), while one of a value the same
// iteration defined goes; a clone inside scf.if whose source is read after
// the scf.if is kept.
// CHECK-LABEL: func.func @regions
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK: scf.for
// CHECK: %[[CX:.+]] = stream.async.clone %[[X]]
// CHECK: stream.async.fill %{{.+}}, %[[CX]]
// CHECK: %[[W:.+]] = stream.async.dispatch kernel("add")
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.fill %{{.+}}, %[[W]]
// CHECK: %[[Y:.+]] = stream.async.dispatch kernel("mul")
// CHECK: scf.if
// CHECK: %[[CY:.+]] = stream.async.clone %[[Y]]
// CHECK: stream.async.fill %{{.+}}, %[[CY]]
func.func @regions(%a: !stream.resource<*>, %s: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %c1 {
    %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
    %w = stream.async.dispatch kernel("add") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    %cw = stream.async.clone %w : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %fw = stream.async.fill %v, %cw : i32 -> !stream.resource<*>{%s}
  }
  %y = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  scf.if %cond {
    %c = stream.async.clone %y : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%s) (%y, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// Inside an scf.if, a clone of a value defined in the same region and not
// used after it is elided.
// CHECK-LABEL: func.func @inside_region
// CHECK: scf.if
// CHECK-NOT: stream.async.clone
func.func @inside_region(%a: !stream.resource<*>, %s: index, %cond: i1) {
  %v = arith.constant 0 : i32
  scf.if %cond {
    %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  }
  return
}
