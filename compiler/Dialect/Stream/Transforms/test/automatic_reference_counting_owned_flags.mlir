// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting | FileCheck %s

// A carried position fed both owned values (fresh allocations) and values
// the program does not own there (an import, a value used again after the
// op, a captured one) gets an i1 "owned" flag carried beside it, before the
// timepoints: set where an owned value is passed in, clear otherwise. Each
// member is freed only where its flag is set; nothing is indeterminate and
// nothing is copied.

// One branch yields a new allocation (owned), the other a value captured
// from outside and still used after the if (not owned). The result is freed
// if its flag is set; the captured value after the result's last use (the
// result may be it).
// CHECK-LABEL: func.func @mixed_if
// CHECK-NOT: indeterminate
// CHECK: %[[X:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[R:.+]]:4 = scf.if %{{.+}} -> (!stream.resource<transient>, i1, !stream.timepoint, !stream.timepoint)
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: scf.yield %{{.+}}, %[[T]], %{{.+}}, %{{.+}} :
// CHECK: } else {
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: scf.yield %[[X]], %[[F]], %{{.+}}, %{{.+}} :
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[R]]#0, %[[R]]#0, %[[R]]#0)
// CHECK: stream.resource.dealloca origin if(%[[R]]#1) await(%[[U]]) %[[R]]#0
// CHECK: %[[V:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[X]], %[[X]], %[[X]])
// CHECK: stream.resource.dealloca origin await(%{{.+}}) %[[X]]
func.func @mixed_if(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %rt, %done = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %x, %xt, %i : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %v = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%u) (%x, %x, %x) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// A loop whose init is the host's (a plain import) but whose body yields new
// allocations: the flag starts clear and each iteration sets it; the body
// frees the value it replaces if its flag is set, the result likewise after
// the loop. The new allocation is handed on, not indeterminate.
// CHECK-LABEL: func.func @mixed_for
// CHECK-NOT: indeterminate
// CHECK: %[[IN:.+]] = stream.tensor.import
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: %[[L:.+]]:5 = scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %[[ACC:.+]] = %[[IN]], %[[OWN:.+]] = %[[F]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (index, !stream.resource<external>, i1, !stream.timepoint, !stream.timepoint)
// CHECK: %[[NEW:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: stream.resource.dealloca origin if(%[[OWN]]) await(%[[D]]) %[[ACC]]
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: scf.yield %{{.+}}, %[[NEW]], %[[T]],
// CHECK: stream.resource.dealloca origin if(%[[L]]#2) await(%[[L]]#3) %[[L]]#1
func.func @mixed_for(%v: !hal.buffer_view, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %k, %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%kk = %c0, %acc = %in, %acct = %t0, %all = %t0) -> (index, !stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%acct, %newt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %acc, %new) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %kk, %new, %d, %all2 : index, !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// An init the body also reads as a captured value is lent, not handed to
// the loop (flag clear): it is freed after the loop, after everything it
// did, and after the result's last use (the result may be it); the
// iterations' own allocations go with their flag.
// CHECK-LABEL: func.func @init_also_captured
// CHECK-NOT: indeterminate
// CHECK: %[[A:[a-z_0-9]+]], %[[AT:[a-z_0-9]+]] = stream.resource.alloca uninitialized :
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: %[[L:.+]]:4 = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[A]], %[[OWN:.+]] = %[[F]],
// CHECK: stream.resource.dealloca origin if(%[[OWN]]) {{.+}} %[[ACC]]
// CHECK: scf.yield
// CHECK: stream.resource.dealloca origin if(%[[L]]#1) await(%[[L]]#2) %[[L]]#0
// CHECK: %[[W:.+]] = stream.timepoint.join max(%[[L]]#3, %[[AT]])
// CHECK: stream.resource.dealloca origin await(%[[W]]) %[[A]]
func.func @init_also_captured(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%acct, %newt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %a, %new) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %new, %d, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// A loop nest: the inner loop's init is the outer iteration's value, so it
// takes the outer flag as its own initial flag and hands its result's flag
// back to the outer yield; only the inner body frees.
// CHECK-LABEL: func.func @nested_flags
// CHECK-NOT: indeterminate
// CHECK: scf.for {{.+}} iter_args(%[[OACC:[^ ]+]] = %{{.+}}, %[[OOWN:[^ ]+]] = %false,
// CHECK: %[[IN:.+]]:4 = scf.for {{.+}} iter_args(%[[IACC:[^ ]+]] = %[[OACC]], %[[IOWN:[^ ]+]] = %[[OOWN]],
// CHECK: stream.resource.dealloca origin if(%[[IOWN]]) {{.+}} %[[IACC]]
// CHECK: scf.yield
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1,
// CHECK: stream.resource.dealloca origin if(
func.func @nested_flags(%v: !hal.buffer_view, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %in, %acct = %t0, %all = %t0) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %r2, %rt2, %done2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc, %acct2 = %acct, %all2 = %t0) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%acct2, %newt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc2, %acc2, %new) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
      %all3 = stream.timepoint.join max(%all2, %d) => !stream.timepoint
      scf.yield %new, %d, %all3 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
    }
    %all4 = stream.timepoint.join max(%all, %done2) => !stream.timepoint
    scf.yield %r2, %rt2, %all4 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

func.func private @keep(tensor<4xi32>) -> tensor<4xi32>

// A flagged result passed to an external function that may keep it: it is
// released only where it is owned (an scf.if on its flag), and freed where
// that release was the last owner.
// CHECK-LABEL: func.func @flagged_kept
// CHECK-NOT: indeterminate
// CHECK: %[[R:.+]]:4 = scf.if
// CHECK: stream.cmd.call @keep(%[[R]]#0)
// CHECK: %[[LAST:.+]] = scf.if %[[R]]#1 -> (i1) {
// CHECK-NEXT: %[[REL:.+]] = stream.resource.release %[[R]]#0
// CHECK-NEXT: scf.yield %[[REL]] : i1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[NO:.+]] = arith.constant false
// CHECK-NEXT: scf.yield %[[NO]] : i1
// CHECK: stream.resource.dealloca origin if(%[[LAST]]) {{.+}} %[[R]]#0
func.func @flagged_kept(%c: i1, %v: !hal.buffer_view, %s: index) {
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r, %rt, %done = scf.if %c -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %in, %i, %i : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  %k, %kt = stream.cmd.call @keep(%r) await(%rt) : (!stream.resource<external>{%s}) -> (!stream.resource<external>{%s}) => !stream.timepoint
  return
}

// -----

// A loop with an owned position beside a flagged one: the owned one stays
// owned when the op is rebuilt with the flag (its allocation handed on and
// freed unconditionally), the flagged one is freed under its flag.
// CHECK-LABEL: func.func @owned_beside_flagged
// CHECK-NOT: indeterminate
// CHECK: %[[L:.+]]:6 = scf.for {{.+}} iter_args(%[[P0:[^ ]+]] = %{{.+}}, %[[P1:[^ ]+]] = %{{.+}}, %[[OWN:[^ ]+]] = %false,
// CHECK-DAG: stream.resource.dealloca origin await(%{{.+}}) %[[P0]] :
// CHECK-DAG: stream.resource.dealloca origin if(%[[OWN]]) await(%{{.+}}) %[[P1]] :
// CHECK: scf.yield
// CHECK-DAG: stream.resource.dealloca origin await(%{{.+}}) %[[L]]#0 :
// CHECK-DAG: stream.resource.dealloca origin if(%[[L]]#2) await(%{{.+}}) %[[L]]#1 :
func.func @owned_beside_flagged(%v: !hal.buffer_view, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r0, %r1, %rt0, %rt1, %done = scf.for %i = %c0 to %n step %c1 iter_args(%p0 = %a, %p1 = %in, %pt0 = %at, %pt1 = %t0, %all = %t0) -> (!stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
    %n0, %n0t = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %n1, %n1t = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%pt0, %pt1, %n0t, %n1t) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%p0, %p1, %n0) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%d) (%n0, %n0, %n1) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d2) => !stream.timepoint
    scf.yield %n0, %n1, %d2, %d2, %all2 : !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// A branch hands out %x as its last use, but the other branch yields what an
// inner scf.if holds, which may be %x (written in place there, captured so
// lent in with a clear flag). That branch must not free %x: the outer
// position only lends it, and it is freed after the result's last use.
// CHECK-LABEL: func.func @if_yields_inner_alias
// CHECK-NOT: indeterminate
// CHECK: %[[X:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[R:.+]]:4 = scf.if
// CHECK: %[[IN:.+]]:4 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[IN]]#0, %[[IN]]#1,
// CHECK-NEXT: } else {
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[F:.+]] = arith.constant false
// CHECK-NEXT: scf.yield %[[X]], %[[F]],
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[R]]#0, %[[R]]#0, %[[R]]#0)
// CHECK-DAG: stream.resource.dealloca origin if(%[[R]]#1) await(%[[U]]) %[[R]]#0
// CHECK-DAG: stream.resource.dealloca origin await(%{{.+}}) %[[X]]
func.func @if_yields_inner_alias(%c: i1, %c2: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %rt, %done = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %q, %qt, %qdone = scf.if %c2 -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%xt) (%x, %x, %x) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      scf.yield %x, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    } else {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    scf.yield %q, %qt, %qdone : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %x, %xt, %i : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// An owned carried value lent to an inner loop (which reads it as a captured
// value too) whose result the outer body yields: the inner position holds
// nothing unowned but it, so where the inner flag is clear the result is
// it. The outer yield passes its ownership on then (the inner flag or the
// outer one), and the body frees it only where it is owned and the inner
// flag is set: not indeterminate, nothing left live.
// CHECK-LABEL: func.func @lent_to_inner_loop_yielded
// CHECK-NOT: indeterminate
// CHECK: scf.for {{.+}} iter_args(%[[OACC:[^ ]+]] = %{{.+}}, %[[OOWN:[^ ]+]] = %true,
// CHECK: %[[IN:.+]]:4 = scf.for {{.+}} iter_args(%[[IACC:[^ ]+]] = %[[OACC]], %[[IOWN:[^ ]+]] = %false,
// CHECK: stream.resource.dealloca origin if(%[[IOWN]]) {{.+}} %[[IACC]]
// CHECK: scf.yield
// CHECK: %[[FREE:.+]] = arith.andi %[[OOWN]], %[[IN]]#1 : i1
// CHECK-NEXT: stream.resource.dealloca origin if(%[[FREE]]) await(%{{.+}}) %[[OACC]]
// CHECK: %[[PASS:.+]] = arith.ori %[[IN]]#1, %[[OOWN]] : i1
// CHECK: scf.yield %[[IN]]#0, %[[PASS]],
func.func @lent_to_inner_loop_yielded(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %r2, %rt2, %done2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc, %acct2 = %acct, %all2 = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%acct2, %newt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %acc2, %new) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %all3 = stream.timepoint.join max(%all2, %d) => !stream.timepoint
      scf.yield %new, %d, %all3 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    %all4 = stream.timepoint.join max(%all, %done2) => !stream.timepoint
    scf.yield %r2, %rt2, %all4 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// An inner scf.if that yields the outer carried value in both branches (one
// writes it in place; it is read after, so lent): what the outer body yields
// is always it, so the body does not free it, and the outer yield passes
// the outer flag on.
// CHECK-LABEL: func.func @lent_to_inner_if_always
// CHECK-NOT: indeterminate
// CHECK: scf.for {{.+}} iter_args(%[[OACC:[^ ]+]] = %{{.+}}, %[[OOWN:[^ ]+]] = %true,
// CHECK: %[[IN:.+]]:3 = scf.if
// CHECK-NOT: stream.resource.dealloca {{.*}}%[[OACC]] :
// CHECK: scf.yield %[[IN]]#0, %[[OOWN]],
func.func @lent_to_inner_if_always(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %y, %yt, %yd = scf.if %c -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %acc, %acc) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
      scf.yield %acc, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
    } else {
      scf.yield %acc, %acct, %t0 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
    }
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%yt, %newt) => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %y, %new) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %d3 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%d2) (%new, %new, %y) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %yd, %d3) => !stream.timepoint
    scf.yield %y, %d3, %all2 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// An inner scf.if that yields the outer carried value or an import: where
// its result is not owned it may be either, so the outer value cannot be
// passed on under a flag, and it stays indeterminate (a remark says so)
// rather than the import be passed on as owned.
// CHECK-LABEL: func.func @lent_to_inner_if_with_other
// CHECK: scf.for {{.+}} iter_args(%[[OACC:[^ ]+]] = %{{.+}}, %[[OOWN:[^ ]+]] = %true,
// CHECK: %[[IN:.+]]:3 = scf.if
// CHECK-NOT: arith.ori
// CHECK-NOT: stream.resource.dealloca {{.*}}%[[OACC]] :
// CHECK: scf.yield %[[IN]]#0, %false
func.func @lent_to_inner_if_with_other(%c: i1, %v: !hal.buffer_view, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %y, %yt, %yd = scf.if %c -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %acc, %acc) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
      scf.yield %acc, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
    } else {
      scf.yield %in, %t0, %t0 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
    }
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%yt, %newt) => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %y, %new) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %d3 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%d2) (%new, %new, %y) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %yd, %d3) => !stream.timepoint
    scf.yield %y, %d3, %all2 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// A write to a flagged result that may be %x (lent in by the else branch)
// may as well be to a new allocation: it does not stand for %x's last write,
// so %x's free still waits for the read before the if (the later reader
// waited only for %x to exist).
// CHECK-LABEL: func.func @lent_write
// CHECK: %[[X:[a-z_0-9]+]], %[[XT:[a-z_0-9]+]] = stream.resource.alloca uninitialized :
// CHECK: %[[D1:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[D1]],
// CHECK-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[X]] :
func.func @lent_write(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %o, %ot = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %w0 = stream.timepoint.join max(%xt, %ot) => !stream.timepoint
  %d1 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w0) (%x, %x, %o) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %r, %rt, %done = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    scf.yield %t, %tt, %tt : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %x, %xt, %i : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %w = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%o, %o, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %v = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%xt) (%x, %x, %o) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// An scf.while whose before region takes the host's import first and new
// allocations after: its before-region argument gets a flag (clear from the
// init, set from the after region's yield), which the condition passes on
// to the after-region argument and the result. Each is freed where its flag
// is set: the after region's argument after its last use there, the result
// after the loop; nothing is indeterminate.
// CHECK-LABEL: func.func @mixed_while
// CHECK-NOT: indeterminate
// CHECK: %[[IN:.+]] = stream.tensor.import
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: %[[W:.+]]:4 = scf.while (%[[B:[a-z_0-9]+]] = %[[IN]], %[[BOWN:[a-z_0-9]+]] = %[[F]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) : (!stream.resource<external>, i1, !stream.timepoint, !stream.timepoint) -> (!stream.resource<external>, i1, !stream.timepoint, !stream.timepoint)
// CHECK-NOT: dealloca
// CHECK: scf.condition(%{{.+}}) %[[B]], %[[BOWN]], %{{.+}}, %{{.+}} :
// CHECK: ^bb0(%[[A:[a-z_0-9]+]]: !stream.resource<external>, %[[AOWN:[a-z_0-9]+]]: i1,
// CHECK: %[[NEW:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[A]], %[[A]], %[[NEW]])
// CHECK: stream.resource.dealloca origin if(%[[AOWN]]) await(%[[D]]) %[[A]]
// CHECK: %[[T:.+]] = arith.constant true
// CHECK: scf.yield %[[NEW]], %[[T]],
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[W]]#0, %[[W]]#0, %[[W]]#0)
// CHECK: stream.resource.dealloca origin if(%[[W]]#1) await(%[[U]]) %[[W]]#0
func.func @mixed_while(%v: !hal.buffer_view, %s: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : i32
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.while (%b = %in, %bt = %t0, %ball = %t0) : (!stream.resource<external>, !stream.timepoint, !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %ready = stream.timepoint.await %bt => %b : (!stream.resource<external>{%s})
    %x = stream.resource.load %ready[%c0] : !stream.resource<external>{%s} -> i32
    %more = arith.cmpi slt, %x, %c10 : i32
    scf.condition(%more) %b, %bt, %ball : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  } do {
  ^bb0(%b2: !stream.resource<external>, %bt2: !stream.timepoint, %all: !stream.timepoint):
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%bt2, %newt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%b2, %b2, %new) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %new, %d, %all2 : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  return
}

// -----

// A value lent to a while (%x: its init, passed again below) is then
// passed to a second while beside that while's result, which is %x itself
// when the first ran no iteration. The second while's position does not
// own %x (a flag, clear from %x, set from the after region's yield): were
// it handed over, the second while would free it (in its body, or as its
// result after the loop) while its other position, or its other result,
// still held it (random seed 278: "already deallocated"). %x itself is
// freed once, after the last use of anything that may hold it.
// CHECK-LABEL: func.func @lent_then_passed
// CHECK-NOT: indeterminate
// CHECK: %[[X:[a-z_0-9]+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[A:.+]]:5 = scf.while (%{{.+}} = %[[X]],
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: %[[R:.+]]:8 = scf.while (%{{.+}} = %[[A]]#0, %[[Q:[a-z_0-9]+]] = %[[X]], %{{.+}} = %{{.+}}, %{{.+}} = %[[A]]#2, %{{.+}} = %[[F]],
// CHECK: } do {
// CHECK: ^bb0(%{{.+}}: !stream.resource<transient>, %[[Q2:[a-z_0-9]+]]: !stream.resource<transient>, %{{.+}}: i32, %{{.+}}: i1, %[[QOWN:[a-z_0-9]+]]: i1,
// CHECK: stream.resource.dealloca origin if(%[[QOWN]]) await(%{{.+}}) %[[Q2]]
// CHECK: stream.resource.dealloca origin if(%[[R]]#4) await(%{{.+}}) %[[R]]#1
// CHECK: stream.resource.dealloca origin if(%[[R]]#3) await(%{{.+}}) %[[R]]#0
// CHECK: stream.resource.dealloca origin await(%{{.+}}) %[[X]]
func.func @lent_then_passed(%s: index, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %a:4 = scf.while (%b = %x, %k = %c0, %bt = %xt, %ball = %t0) : (!stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint) {
    %go = arith.cmpi slt, %k, %n : i32
    scf.condition(%go) %b, %k, %bt, %ball : !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint
  } do {
  ^bb0(%b2: !stream.resource<transient>, %k2: i32, %bt2: !stream.timepoint, %all: !stream.timepoint):
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%bt2, %newt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%b2, %b2, %new) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %k3 = arith.addi %k2, %c1 : i32
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %new, %k3, %d, %all2 : !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint
  }
  %r:6 = scf.while (%p = %a#0, %q = %x, %k = %c0, %pt = %a#2, %qt = %xt, %rall = %a#3) : (!stream.resource<transient>, !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
    %go = arith.cmpi slt, %k, %n : i32
    scf.condition(%go) %p, %q, %k, %pt, %qt, %rall : !stream.resource<transient>, !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint, !stream.timepoint
  } do {
  ^bb0(%p2: !stream.resource<transient>, %q2: !stream.resource<transient>, %k2: i32, %pt2: !stream.timepoint, %qt2: !stream.timepoint, %all: !stream.timepoint):
    %np, %npt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %nq, %nqt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%pt2, %qt2, %npt, %nqt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%p2, %q2, %np) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %e = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%d) (%p2, %q2, %nq) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %k3 = arith.addi %k2, %c1 : i32
    %all2 = stream.timepoint.join max(%all, %e) => !stream.timepoint
    scf.yield %np, %nq, %k3, %e, %e, %all2 : !stream.resource<transient>, !stream.resource<transient>, i32, !stream.timepoint, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%r#4) (%r#1, %r#1, %r#1) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %v = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%u) (%r#0, %r#0, %r#0) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}
