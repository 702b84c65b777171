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

// -----

// A read-only fork: nothing writes the clone or the source, so their readers
// share the source's storage, even though the source is read after the
// clone.
// CHECK-LABEL: func.func @read_only_fork
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[X]], %[[X]])
// CHECK: stream.async.dispatch kernel("sub") {{.+}} (%[[X]], %[[X]])
func.func @read_only_fork(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%c, %c) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %z = stream.async.dispatch kernel("sub") type(i32) count(%s) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %y, %z : !stream.resource<*>, !stream.resource<*>
}

// -----

// Several read-only clones of one host import all read the import itself
// (an import is never written in place, but only reading it is fine).
// CHECK-LABEL: func.func @read_only_clones
// CHECK: %[[I:.+]] = stream.tensor.import
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[I]], %[[I]])
// CHECK: stream.async.dispatch kernel("mul") {{.+}} (%[[I]], %[[I]])
func.func @read_only_clones(%view: !hal.buffer_view, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %i = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %c1 = stream.async.clone %i : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %c2 = stream.async.clone %i : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%c1, %c2) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %z = stream.async.dispatch kernel("mul") type(i32) count(%s) (%c2, %c1) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  return %y, %z : !stream.resource<*>, !stream.resource<*>
}

// -----

// A fork where one side is written while the other is still read keeps its
// copy: here the source is written in place after the clone was read.
// CHECK-LABEL: func.func @source_written_later
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK: %[[C:.+]] = stream.async.clone %[[X]]
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[C]], %[[C]])
// CHECK: stream.async.fill %{{.+}}, %[[X]]
func.func @source_written_later(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%c, %c) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %x : i32 -> !stream.resource<*>{%s}
  return %y, %f : !stream.resource<*>, !stream.resource<*>
}

// -----

// A clone of a constant into a constant that nothing writes is the constant
// itself; one that is written (copy-on-write of an immutable value) stays.
// CHECK-LABEL: func.func @constant_clones
// CHECK: %[[K:.+]] = stream.async.constant
// CHECK-NEXT: %[[W:.+]] = stream.async.clone %[[K]]
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[K]], %[[K]])
// CHECK: stream.async.fill %{{.+}}, %[[W]]
func.func @constant_clones(%s: index) -> (!stream.resource<*>, !stream.resource<constant>) {
  %k = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<constant>{%s}
  %w = stream.async.clone %k : !stream.resource<constant>{%s} -> !stream.resource<constant>{%s}
  %c = stream.async.clone %k : !stream.resource<constant>{%s} -> !stream.resource<constant>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%c, %c) : (!stream.resource<constant>{%s}, !stream.resource<constant>{%s}) -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %w : i32 -> !stream.resource<constant>{%s}
  return %y, %f : !stream.resource<*>, !stream.resource<constant>
}

// -----

// A transfer that keeps the lifetime and the device is a copy like a clone:
// here the source dies there and the copy is written. One to another device
// or lifetime moves the value and stays.
// CHECK-LABEL: func.func @same_place_transfer
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK-NOT: stream.async.transfer
// CHECK: %[[F:.+]] = stream.async.fill %{{.+}}, %[[X]]
// CHECK: stream.async.transfer %[[F]] : !stream.resource<*>{%{{.+}}} -> !stream.resource<*>{%{{.+}}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.transfer %{{.+}} : !stream.resource<*>{%{{.+}}} -> !stream.resource<transient>
func.func @same_place_transfer(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<transient>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %t = stream.async.transfer %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %t : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %b = stream.async.transfer %f : !stream.resource<*>{%s} -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@b>}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %l = stream.async.transfer %y : !stream.resource<*>{%s} -> !stream.resource<transient>{%s}
  return %b, %l : !stream.resource<*>, !stream.resource<transient>
}

// -----

// An export holds its value until the function returns, even when it comes
// before the copy: a copy of a returned value that is then written stays, or
// the caller would see the write.
// CHECK-LABEL: func.func @exported_before
// CHECK: %[[X:.+]] = stream.async.dispatch
// CHECK: stream.tensor.export %[[X]]
// CHECK: %[[C:.+]] = stream.async.clone %[[X]]
// CHECK: stream.async.fill %{{.+}}, %[[C]]
func.func @exported_before(%a: !stream.resource<external>, %s: index) -> (!hal.buffer_view, !hal.buffer_view) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %v0 = stream.tensor.export %x : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %c = stream.async.clone %x : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %z = arith.constant 0 : i32
  %f = stream.async.fill %z, %c : i32 -> !stream.resource<external>{%s}
  %v1 = stream.tensor.export %f : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v0, %v1 : !hal.buffer_view, !hal.buffer_view
}

// -----

// An update whose bytes are all written again before anything reads them
// goes: overwritten by an update of a range containing its own, or by a
// fill. One that is read first, or only partly overwritten, stays.
// CHECK-LABEL: func.func @overwritten_updates
// CHECK-SAME: (%[[U:[^:]+]]: !stream.resource<*>, %[[V:[^:]+]]: !stream.resource<*>
// CHECK: %[[T:.+]] = stream.async.alloca
// CHECK-NOT: stream.async.update %[[U]]
// CHECK: %[[A:.+]] = stream.async.update %[[V]], %[[T]][%c0]
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[A]], %[[A]])
// CHECK: %[[B:.+]] = stream.async.update %[[U]], %[[A]][%c0]
// CHECK: stream.async.update %[[V]], %[[B]][%c16]
func.func @overwritten_updates(%u: !stream.resource<*>, %v: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %t = stream.async.alloca : !stream.resource<*>{%c32}
  %dead = stream.async.update %u, %t[%c16] : !stream.resource<*>{%c16} -> !stream.resource<*>{%c32}
  %a = stream.async.update %v, %dead[%c0] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c32}
  %r = stream.async.dispatch kernel("add") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%c32}, !stream.resource<*>{%c32}) -> !stream.resource<*>{%c32}
  %b = stream.async.update %u, %a[%c0] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c32}
  %p = stream.async.update %v, %b[%c16] : !stream.resource<*>{%c16} -> !stream.resource<*>{%c32}
  return %r, %p : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: func.func @overwritten_by_fill
// CHECK: %[[T:.+]] = stream.async.alloca
// CHECK-NOT: stream.async.update
// CHECK: stream.async.fill %{{.+}}, %[[T]]
func.func @overwritten_by_fill(%u: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %c16 = arith.constant 16 : index
  %t = stream.async.alloca : !stream.resource<*>{%s}
  %dead = stream.async.update %u, %t[%c16] : !stream.resource<*>{%c16} -> !stream.resource<*>{%s}
  %x = arith.constant 7 : i32
  %f = stream.async.fill %x, %dead : i32 -> !stream.resource<*>{%s}
  return %f : !stream.resource<*>
}

// -----

// A block argument every branch passes a last use of writable storage may
// be written in place: its clone goes. One whose value the predecessor
// still reads later is kept.
// CHECK-LABEL: func.func @branch_argument
// CHECK: ^bb1(%[[ARG:.+]]: !stream.resource<*>):
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.fill %{{.+}}, %[[ARG]]
func.func @branch_argument(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  cf.br ^bb1(%x : !stream.resource<*>)
^bb1(%arg: !stream.resource<*>):
  %c = stream.async.clone %arg : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  return %f : !stream.resource<*>
}
// CHECK-LABEL: func.func @branch_argument_read_later
// CHECK: ^bb1(%[[ARG:.+]]: !stream.resource<*>):
// CHECK: %[[C:.+]] = stream.async.clone %[[ARG]]
// CHECK: stream.async.fill %{{.+}}, %[[C]]
func.func @branch_argument_read_later(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  cf.br ^bb1(%x : !stream.resource<*>)
^bb1(%arg: !stream.resource<*>):
  %c = stream.async.clone %arg : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  %y = stream.async.dispatch kernel("add") type(i32) count(%s) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %f, %y : !stream.resource<*>, !stream.resource<*>
}

// -----

// A loop made of branches runs its blocks again: a clone there of a value
// defined before the loop is kept, as the next turn reads the value again.
// CHECK-LABEL: func.func @branch_loop
// CHECK: %[[X:.+]] = stream.async.dispatch kernel("mul")
// CHECK: ^bb1:
// CHECK: %[[C:.+]] = stream.async.clone %[[X]]
// CHECK: stream.async.fill %{{.+}}, %[[C]]
func.func @branch_loop(%a: !stream.resource<*>, %s: index, %cond: i1) {
  %x = stream.async.dispatch kernel("mul") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  cf.br ^bb1
^bb1:
  %c = stream.async.clone %x : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %v = arith.constant 0 : i32
  %f = stream.async.fill %v, %c : i32 -> !stream.resource<*>{%s}
  cf.cond_br %cond, ^bb1, ^bb2
^bb2:
  return
}

// -----

// An argument the host lent for a result to be written into (the function's
// stream.tied_operands, from iree.abi.tied) may be written in place at its
// last use; another argument's import may not.
// CHECK-LABEL: func.func @lent_argument
// CHECK: %[[A:.+]] = stream.tensor.import %arg0
// CHECK: %[[T:.+]] = stream.tensor.import %arg1
// CHECK: %[[CA:.+]] = stream.async.clone %[[A]]
// CHECK: stream.async.fill %{{.+}}, %[[CA]]
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.fill %{{.+}}, %[[T]]
func.func @lent_argument(%v0: !hal.buffer_view, %v1: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) attributes {stream.tied_operands = array<i64: -1, 1>} {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %v0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t = stream.tensor.import %v1 message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %v = arith.constant 3 : i32
  %ca = stream.async.clone %a : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %fa = stream.async.fill %v, %ca : i32 -> !stream.resource<external>{%s}
  %ct = stream.async.clone %t : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %ft = stream.async.fill %v, %ct : i32 -> !stream.resource<external>{%s}
  %o0 = stream.tensor.export %fa : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o1 = stream.tensor.export %ft : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %o0, %o1 : !hal.buffer_view, !hal.buffer_view
}
