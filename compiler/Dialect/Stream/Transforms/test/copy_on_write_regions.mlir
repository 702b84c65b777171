// RUN: ferry-opt %s --split-input-file --stream-materialize-copy-on-write --stream-elide-async-copies | FileCheck %s

// Values carried through scf regions: a carried position owns what it is
// passed, so copy-on-write copies what is not a writable last use, and copy
// elision removes what no reader could tell from its source.

// A loop-carried value updated in place: no copy, neither at the init nor
// per iteration.
// CHECK-LABEL: func.func @for_in_place
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NOT: stream.async.clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[INIT]])
// CHECK-NEXT: %[[Y:.+]] = stream.async.dispatch kernel("add") {{.+}}(%[[ACC]], %{{.+}}) : {{.+}} -> %[[ACC]]{
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NOT: stream.async.clone
func.func @for_in_place(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// The init is read after the loop: the loop gets a copy (a new splat), the
// value after it is the original.
// CHECK-LABEL: func.func @for_init_read_after
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK: %[[COPY:.+]] = stream.async.splat
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[COPY]])
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[INIT]], %[[R]])
func.func @for_init_read_after(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// An import is the host's: the loop that writes it gets a clone, once, before
// the loop.
// CHECK-LABEL: func.func @for_import_init
// CHECK: %[[A:.+]] = stream.tensor.import
// CHECK-NEXT: %[[CLONE:.+]] = stream.async.clone %[[A]]
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[CLONE]])
// CHECK-NOT: stream.async.clone
// CHECK: scf.yield
func.func @for_import_init(%n: index, %view: !hal.buffer_view, %x: !stream.resource<*>) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<external>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<external>
  }
  return %r : !stream.resource<external>
}

// -----

// A value captured from outside and written inside a loop gets a clone in the
// loop: the next iteration reads it again.
// CHECK-LABEL: func.func @for_captured_write
// CHECK: %[[B:.+]] = stream.async.dispatch kernel("add")
// CHECK: scf.for
// CHECK-NEXT: %[[C:.+]] = stream.async.clone %[[B]]
// CHECK-NEXT: stream.async.call @ext(%[[C]])
func.func private @ext(tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 0>}
func.func @for_captured_write(%n: index, %a: !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %b = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  scf.for %i = %c0 to %n step %c1 {
    %f = stream.async.call @ext(%b) : (!stream.resource<*>{%s}) -> (%b{%s})
  }
  return
}

// -----

// A value captured from outside and written in one branch of an scf.if that
// nothing after the if reads: written in place.
// CHECK-LABEL: func.func @if_one_branch
// CHECK-NOT: stream.async.clone
// CHECK: scf.if
// CHECK: stream.async.dispatch kernel("mul") {{.+}} -> %{{.+}}{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_one_branch(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Written in both branches, read by nothing after the if: no copy in either.
// CHECK-LABEL: func.func @if_both_branches
// CHECK: %[[A:.+]] = stream.async.splat
// CHECK-NOT: stream.async.clone
// CHECK: scf.if
// CHECK: stream.async.dispatch kernel("mul") {{.+}}(%[[A]], %{{.+}}) : {{.+}} -> %[[A]]{
// CHECK: } else {
// CHECK: stream.async.fill %{{.+}}, %[[A]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_both_branches(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    %f = stream.async.fill %v, %a : i32 -> !stream.resource<*>{%s}
    scf.yield %f : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Read after the if: the branch that writes it gets a copy.
// CHECK-LABEL: func.func @if_read_after
// CHECK: %[[A:.+]] = stream.async.splat
// CHECK: scf.if
// CHECK-NEXT: %[[COPY:.+]] = stream.async.splat
// CHECK-NEXT: stream.async.dispatch kernel("mul") {{.+}} -> %[[COPY]]{
// CHECK: stream.async.dispatch kernel("add") {{.+}}(%[[A]],
func.func @if_read_after(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    scf.yield %x : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// A read-only import passed into a loop that only reads it: no copy (nothing
// writes either side).
// CHECK-LABEL: func.func @for_read_only_init
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @for_read_only_init(%n: index, %view: !hal.buffer_view) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<external>) {
    scf.yield %acc : !stream.resource<external>
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%c4) (%r, %r) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// One value passed into two positions of a loop that writes both: one of
// them gets a copy.
// CHECK-LABEL: func.func @for_passed_twice
// CHECK: %[[A:.+]] = stream.async.dispatch kernel("mul")
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[A]]
// CHECK-NEXT: scf.for {{.+}} iter_args(%{{.+}} = %[[COPY]], %{{.+}} = %[[A]])
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @for_passed_twice(%n: index, %x: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %a, %q = %a) -> (!stream.resource<*>, !stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%p, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %p{%s}
    %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%q, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %q{%s}
    scf.yield %y, %z : !stream.resource<*>, !stream.resource<*>
  }
  return %r#0, %r#1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// scf.while: the value carried through both regions is written in place in
// each, without a copy.
// CHECK-LABEL: func.func @while_in_place
// CHECK-NOT: stream.async.clone
// CHECK: scf.while (%[[W:.+]] = %{{.+}})
// CHECK-NEXT: %[[Y:.+]] = stream.async.dispatch kernel("add") {{.+}} -> %[[W]]{
// CHECK: scf.condition(%{{.+}}) %[[Y]]
// CHECK: ^bb0(%[[Z:.+]]: !stream.resource<*>):
// CHECK-NEXT: stream.async.fill %{{.+}}, %[[Z]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @while_in_place(%v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.while (%w = %a) : (!stream.resource<*>) -> !stream.resource<*> {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%w, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %w{%s}
    %e = stream.resource.load %y[%c0] : !stream.resource<*>{%s} -> i32
    %cond = arith.cmpi slt, %e, %v : i32
    scf.condition(%cond) %y : !stream.resource<*>
  } do {
  ^bb0(%z: !stream.resource<*>):
    %f = stream.async.fill %v, %z : i32 -> !stream.resource<*>{%s}
    scf.yield %f : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Nested loops: the outer iter_arg passed into the inner loop as its last
// use is written in place there; no copy at any level.
// CHECK-LABEL: func.func @nested_for
// CHECK-NOT: stream.async.clone
// CHECK: scf.for {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}})
// CHECK: scf.for {{.+}} iter_args(%[[INNER:.+]] = %[[OUTER]])
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[INNER]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @nested_for(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!stream.resource<*>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%inner, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %inner{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %in : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Nested loops: the outer iter_arg is read after the inner loop, so the inner
// loop gets a copy of it, made once per outer iteration.
// CHECK-LABEL: func.func @nested_for_read_after
// CHECK: scf.for {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}})
// CHECK-NEXT: %[[SIZE:.+]] = stream.resource.size %[[OUTER]]
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[OUTER]] : !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT: scf.for {{.+}} iter_args(%{{.+}} = %[[COPY]])
func.func @nested_for_read_after(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!stream.resource<*>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%inner, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %inner{%s}
      scf.yield %y : !stream.resource<*>
    }
    %d = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%in, %outer) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %in{%s}
    scf.yield %d : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A loop inside an scf.if writes a value captured from outside the if in
// place as its carried value: nothing after the if reads it.
// CHECK-LABEL: func.func @for_in_if
// CHECK-NOT: stream.async.clone
// CHECK: scf.if
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @for_in_if(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    scf.yield %a : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// An scf.if inside a loop updates the loop-carried value in place in one
// branch and passes it on in the other: no copy.
// CHECK-LABEL: func.func @if_in_for
// CHECK-NOT: stream.async.clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK: scf.if
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_in_for(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<*>) {
    %b = scf.if %c -> !stream.resource<*> {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      scf.yield %acc : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A value captured from outside and written in an scf.while body gets a copy
// there (a new splat): the next iteration writes the original again.
// CHECK-LABEL: func.func @while_captured_write
// CHECK: %[[B:.+]] = stream.async.splat
// CHECK: scf.while
// CHECK-NEXT: %[[COPY:.+]] = stream.async.splat
// CHECK-NEXT: stream.async.call @ext(%[[COPY]])
func.func private @ext(tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 0>}
func.func @while_captured_write(%v: i32) {
  %s = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %b = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  scf.while : () -> () {
    %f = stream.async.call @ext(%b) : (!stream.resource<*>{%s}) -> (%b{%s})
    %e = stream.resource.load %f[%c0] : !stream.resource<*>{%s} -> i32
    %cond = arith.cmpi slt, %e, %v : i32
    scf.condition(%cond)
  } do {
    scf.yield
  }
  return
}

// -----

// A copy of a value whose op places it nowhere (a loop's iter_arg, a
// loop's result) is made where the function places its ops: on @b here,
// not on the default device (the reduced random seed 5825 copied a loop's
// result to the module's first device while every other op ran on @b).
// CHECK-LABEL: func.func @copy_placed_by_function
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}})
// CHECK: stream.async.clone %[[OUTER]] : {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.clone %[[R]] : {{.+}} {stream.affinity = #hal.device.affinity<@b>}
hal.device.global @b = #hal.device.target<"local", {}>
func.func @copy_placed_by_function(%n: index, %v: i32, %x: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) attributes {stream.affinity = #hal.device.affinity<@b>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!stream.resource<*>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%inner, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %inner{%s}
      scf.yield %y : !stream.resource<*>
    }
    %d = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%in, %outer) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %in{%s}
    scf.yield %d : !stream.resource<*>
  }
  %w = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %r) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r, %w : !stream.resource<*>, !stream.resource<*>
}
