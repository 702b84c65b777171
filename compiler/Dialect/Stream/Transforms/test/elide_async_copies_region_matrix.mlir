// RUN: ferry-opt %s --split-input-file --stream-elide-async-copies | FileCheck %s

// Issue 15's matrix of region kinds and copy-elision behaviours, for the
// cells elide_async_copies_regions.mlir does not cover: a clone of a
// loop-carried value whose previous iteration's value is dead goes (while,
// nested loops, a loop in an if, an if in a loop); a clone in one branch
// and in both branches goes when nothing after the branch reads the
// source (a loop in an if, an if in a loop); a read-only clone goes (if,
// while, nested loops, a loop in an if, an if in a loop), here of a value
// the program itself made and reads again after the region, so only the
// read-only rule can remove it; a value read after the region keeps its
// copy (while, a loop in an if, an if in a loop).

// scf.while: a clone of the value the after region receives, written in
// place and yielded back, goes: the init is a last use of a splat, the
// condition passes the before region's value on as its last use.
// CHECK-LABEL: func.func @while_carried_clone
// CHECK: ^bb0(%[[A:.+]]: !stream.resource<*>):
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}}(%[[A]], %{{.+}}) : {{.+}} -> %[[A]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @while_carried_clone(%v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.while (%w = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    %e = stream.resource.load %w[%c0] : !stream.resource<*>{%s} -> i32
    %go = arith.cmpi slt, %e, %v : i32
    scf.condition(%go) %w : !stream.resource<*>
  } do {
  ^bb0(%a: !stream.resource<*>):
    %c = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// scf.while: the init is read after the loop, so the loop's copy of it
// stays.
// CHECK-LABEL: func.func @while_init_read_after
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// CHECK-NEXT: %[[R:.+]] = scf.while (%{{.+}} = %[[COPY]])
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[INIT]], %[[R]])
func.func @while_init_read_after(%v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %copy = stream.async.clone %init : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = scf.while (%w = %copy) : (!stream.resource<*>) -> !stream.resource<*> {
    %e = stream.resource.load %w[%c0] : !stream.resource<*>{%s} -> i32
    %go = arith.cmpi slt, %e, %v : i32
    scf.condition(%go) %w : !stream.resource<*>
  } do {
  ^bb0(%a: !stream.resource<*>):
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// scf.while: a read-only clone in the after region of a value made before
// the loop (and read again after it) goes.
// CHECK-LABEL: func.func @while_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @while_read_only_clone(%v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.while (%w = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    %e = stream.resource.load %w[%c0] : !stream.resource<*>{%s} -> i32
    %go = arith.cmpi slt, %e, %v : i32
    scf.condition(%go) %w : !stream.resource<*>
  } do {
  ^bb0(%b: !stream.resource<*>):
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%b, %k) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %b{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// scf.if: a read-only clone in one branch of a value made before the if
// (and read again after it) goes.
// CHECK-LABEL: func.func @if_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_read_only_clone(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// Nested loops: a clone of the inner loop's iter_arg (handed the outer
// one's as its init) goes; no copy at either level.
// CHECK-LABEL: func.func @nested_carried_clone
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}})
// CHECK: scf.for {{.+}} iter_args(%[[INNER:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} -> %[[INNER]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @nested_carried_clone(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!stream.resource<*>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (!stream.resource<*>) {
      %c = stream.async.clone %inner : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %in : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Nested loops: a read-only clone in the inner body of a value made before
// both loops (and read again after them) goes.
// CHECK-LABEL: func.func @nested_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @nested_read_only_clone(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!stream.resource<*>) {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (!stream.resource<*>) {
      %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%inner, %k) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %inner{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %in : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// A loop in an if: a clone of the loop's iter_arg goes (the loop's init is
// a value from before the if that the other branch only reads, its last
// use on either path).
// CHECK-LABEL: func.func @loop_in_if_carried_clone
// CHECK: scf.if
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @loop_in_if_carried_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<*>) {
      %k = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A loop in an if: the clone in the one branch that hands a value from
// before the if to a loop writing it in place goes (nothing after the if
// reads the value; the other branch only reads it).
// CHECK-LABEL: func.func @loop_in_if_one_branch_clone
// CHECK: %[[A:.+]] = stream.async.splat
// CHECK-NOT: stream.async.clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[A]])
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @loop_in_if_one_branch_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %k) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A loop in an if: clones in both branches (one handed to a loop that
// writes it, one filled) of a value nothing after the if reads go.
// CHECK-LABEL: func.func @loop_in_if_both_branches_clone
// CHECK: %[[A:.+]] = stream.async.splat
// CHECK-NOT: stream.async.clone
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[A]])
// CHECK: } else {
// CHECK-NEXT: stream.async.fill %{{.+}}, %[[A]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @loop_in_if_both_branches_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %k) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %f = stream.async.fill %v, %k : i32 -> !stream.resource<*>{%s}
    scf.yield %f : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A loop in an if: a read-only clone in the loop body of a value made
// before the if (and read again after it) goes.
// CHECK-LABEL: func.func @loop_in_if_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @loop_in_if_read_only_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
      %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %k) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    scf.yield %init : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// A loop in an if: the value the loop's copy is made from is read after
// the if (so after the loop): the copy stays.
// CHECK-LABEL: func.func @loop_in_if_read_after
// CHECK: %[[A:.+]] = stream.async.splat
// CHECK: scf.if
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[A]]
// CHECK-NEXT: scf.for {{.+}} iter_args(%{{.+}} = %[[COPY]])
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[A]], %{{.+}})
func.func @loop_in_if_read_after(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %k) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %l : !stream.resource<*>
  } else {
    scf.yield %x : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// An if in a loop: a clone of the loop-carried value, made in the body
// before the if and written in place in both branches, goes.
// CHECK-LABEL: func.func @if_in_loop_carried_clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK: } else {
// CHECK-NEXT: stream.async.fill %{{.+}}, %[[ACC]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_in_loop_carried_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %k = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %b = scf.if %c -> !stream.resource<*> {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      %f = stream.async.fill %v, %k : i32 -> !stream.resource<*>{%s}
      scf.yield %f : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// An if in a loop: a clone of the loop-carried value in one branch goes
// (the other branch passes the value on unchanged).
// CHECK-LABEL: func.func @if_in_loop_one_branch_clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: scf.if
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_in_loop_one_branch_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %b = scf.if %c -> !stream.resource<*> {
      %k = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      scf.yield %acc : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// An if in a loop: clones of the loop-carried value in both branches go.
// CHECK-LABEL: func.func @if_in_loop_both_branches_clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: scf.if
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK: } else {
// CHECK-NEXT: stream.async.dispatch kernel("mul") {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_in_loop_both_branches_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %b = scf.if %c -> !stream.resource<*> {
      %k = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      %k = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// An if in a loop: a read-only clone in a branch of a value made before
// the loop (and read again after it) goes.
// CHECK-LABEL: func.func @if_in_loop_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_in_loop_read_only_clone(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %b = scf.if %c -> !stream.resource<*> {
      %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %k) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      scf.yield %acc : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// An if in a loop: the loop's init is read after the loop, so the loop's
// copy of it stays; inside, the branch writes the carried value in place.
// CHECK-LABEL: func.func @if_in_loop_init_read_after
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// CHECK-NEXT: %[[R:.+]] = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[COPY]])
// CHECK: scf.if
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[INIT]], %[[R]])
func.func @if_in_loop_init_read_after(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %copy = stream.async.clone %init : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %copy) -> (!stream.resource<*>) {
    %b = scf.if %c -> !stream.resource<*> {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      scf.yield %acc : !stream.resource<*>
    }
    scf.yield %b : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// An if in a loop: a value the body makes and reads again after the if
// keeps its copy in the branch that writes it.
// CHECK-LABEL: func.func @if_in_loop_read_after_if
// CHECK: scf.for
// CHECK: %[[T:.+]] = stream.async.dispatch kernel("mul")
// CHECK: scf.if
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[T]]
// CHECK-NEXT: stream.async.dispatch kernel("add") {{.+}} -> %[[COPY]]{
// CHECK: stream.async.dispatch kernel("sub") {{.+}}(%[[T]], %{{.+}})
func.func @if_in_loop_read_after_if(%c: i1, %n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %t = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    %b = scf.if %c -> !stream.resource<*> {
      %k = stream.async.clone %t : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
      scf.yield %y : !stream.resource<*>
    }
    %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%t, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %z : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}
