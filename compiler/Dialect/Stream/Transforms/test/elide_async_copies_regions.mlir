// RUN: ferry-opt %s --split-input-file --stream-elide-async-copies | FileCheck %s

// Copy elision through scf regions: block arguments and results of region
// ops are storage the program may write when every value passed into them
// is one, passed as its last use.

// A clone of a loop-carried value whose previous iteration's value is dead
// goes: the update is in place, no copy per iteration.
// CHECK-LABEL: func.func @for_carried_clone
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}} -> %[[ACC]]{
func.func @for_carried_clone(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %c = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// The iter_arg is read after the in-place write in the same iteration: its
// clone stays.
// CHECK-LABEL: func.func @for_carried_read_after_write
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CHECK-NEXT: stream.async.clone %[[ACC]]
func.func @for_carried_read_after_write(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %c = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
    %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%y, %acc) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %y{%s}
    scf.yield %z : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// The loop's init is an import, passed without a copy: the iter_arg is the
// host's, so a clone of it stays.
// CHECK-LABEL: func.func @for_import_carried
// CHECK: scf.for
// CHECK-NEXT: stream.async.clone
func.func @for_import_carried(%n: index, %view: !hal.buffer_view, %x: !stream.resource<*>) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<external>) {
    %c = stream.async.clone %acc : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> %c{%s}
    scf.yield %y : !stream.resource<external>
  }
  return %r : !stream.resource<external>
}

// -----

// A clone in one branch of an scf.if of a value nothing after the if reads
// goes.
// CHECK-LABEL: func.func @if_one_branch_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_one_branch_clone(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Clones in both branches of a value nothing after the if reads go.
// CHECK-LABEL: func.func @if_both_branches_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @if_both_branches_clone(%c: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> !stream.resource<*> {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
    scf.yield %y : !stream.resource<*>
  } else {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A read-only clone inside a loop (of a value captured from outside, which
// nothing writes) goes.
// CHECK-LABEL: func.func @for_read_only_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @for_read_only_clone(%n: index, %view: !hal.buffer_view, %x: !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  scf.for %i = %c0 to %n step %c1 {
    %k = stream.async.clone %a : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%k, %x) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  }
  return
}

// -----

// A clone of a loop's init read after the loop stays.
// CHECK-LABEL: func.func @for_init_read_after_clone
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// CHECK-NEXT: scf.for {{.+}} iter_args(%{{.+}} = %[[COPY]])
func.func @for_init_read_after_clone(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %copy = stream.async.clone %init : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %copy) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// The same as copy-on-write leaves it: a clone of the init on entry and a
// clone in the body of the iter_arg it writes. Either could go alone (the
// init's clone if only the body's clone reads the iter_arg, the body's if
// the init's clone makes the iter_arg the loop's own), not both; the
// body's goes (one copy per iteration), the init's stays (one copy).
// CHECK-LABEL: func.func @for_init_read_after_two_clones
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// CHECK-NEXT: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[COPY]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}}(%[[ACC]], %{{.+}}) : {{.+}} -> %[[ACC]]{
func.func @for_init_read_after_two_clones(%n: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %copy = stream.async.clone %init : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %copy) -> (!stream.resource<*>) {
    %c = stream.async.clone %acc : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
    scf.yield %y : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// The same for an scf.while (a rotated loop, as lifting cf blocks makes:
// the before region writes its argument in an scf.if, the other branch
// passes it out): the init's clone stays, the body's goes.
// CHECK-LABEL: func.func @while_init_read_after_two_clones
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK-NEXT: %[[COPY:.+]] = stream.async.clone %[[INIT]]
// CHECK-NEXT: scf.while (%[[ACC:.+]] = %[[COPY]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.dispatch kernel("add") {{.+}}(%[[ACC]], %{{.+}}) : {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @while_init_read_after_two_clones(%go: i1, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %init = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %copy = stream.async.clone %init : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = scf.while (%w = %copy) : (!stream.resource<*>) -> !stream.resource<*> {
    %n = scf.if %go -> !stream.resource<*> {
      %c = stream.async.clone %w : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%c, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %c{%s}
      scf.yield %y : !stream.resource<*>
    } else {
      scf.yield %w : !stream.resource<*>
    }
    scf.condition(%go) %n : !stream.resource<*>
  } do {
  ^bb0(%a: !stream.resource<*>):
    scf.yield %a : !stream.resource<*>
  }
  %z = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%init, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return %z : !stream.resource<*>
}

// -----

// A clone in one case of an scf.index_switch of a value nothing after the
// switch reads goes: the other cases, which read it, never run with it.
// CHECK-LABEL: func.func @switch_one_case_clone
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @switch_one_case_clone(%sel: index, %v: i32, %x: !stream.resource<*>) -> !stream.resource<*> {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.index_switch %sel -> !stream.resource<*>
  case 0 {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  case 1 {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
    scf.yield %y : !stream.resource<*>
  }
  default {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// A value read after the switch keeps its copy in the case that writes it.
// CHECK-LABEL: func.func @switch_clone_read_after
// CHECK: case 1 {
// CHECK-NEXT: stream.async.clone
func.func @switch_clone_read_after(%sel: index, %v: i32, %x: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %s = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %a = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = scf.index_switch %sel -> !stream.resource<*>
  case 1 {
    %k = stream.async.clone %a : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%k, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %k{%s}
    scf.yield %y : !stream.resource<*>
  }
  default {
    %y = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  return %r, %a : !stream.resource<*>, !stream.resource<*>
}
