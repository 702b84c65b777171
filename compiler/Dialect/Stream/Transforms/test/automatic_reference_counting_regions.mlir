// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting | FileCheck %s

// Stage-2 IR in the form of docs/ARCHITECTURE.md "Structured regions": each
// region op carries a resource with its ready timepoint and ends with an
// "everything done" timepoint.

// scf.for: a captured resource is freed right after the loop, ordered on the
// loop's done timepoint; the init is handed to the loop (no free of its own);
// the carried result, dropped, is freed right after the loop on its ready
// timepoint; the body yields its block argument (in place), so nothing is
// freed inside.
// CHECK-LABEL: func.func @for_captured
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[L:.+]]:3 = scf.for
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[L]]#0
// CHECK-NEXT: %[[F1:.+]] = stream.resource.dealloca origin await(%[[L]]#1) %[[L]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK-NEXT: %[[XJ1:.+]] = stream.timepoint.join max(%[[L]]#2, %{{.+}})
// CHECK-NEXT: %[[F2:.+]] = stream.resource.dealloca origin await(%[[XJ1]]) %[[X]] :
// CHECK-NOT: stream.resource.dealloca{{.*}}%[[A]]
// CHECK: stream.timepoint.await
func.func @for_captured(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %w = stream.timepoint.join max(%acct, %xt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %x, %acc) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %acc, %d, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// scf.for: an allocation local to the body is freed inside it at its last
// use; the carried block argument the body replaces with a new allocation
// is freed in the body after its last use; both frees are folded into the
// done timepoint the body passes on, and the function awaits the loop's.
// The yielded result is freed after its last use outside.
// CHECK-LABEL: func.func @for_replaced
// CHECK: %[[L:.+]]:3 = scf.for %{{.+}} iter_args(%[[ACC:[^ ]+]] = %{{.+}}, %{{.+}} = %{{.+}}, %[[ALL:[^ ]+]] = %{{.+}})
// CHECK: %[[NEW:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[TMP:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[ACC]], %[[ACC]], %[[TMP]])
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[ACC]]
// CHECK-NEXT: %[[FACC:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[ACC]] : !stream.resource<transient>{%[[SZ]]}
// CHECK-NEXT: %[[D2:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[TMP]], %[[TMP]], %[[NEW]])
// CHECK-NEXT: %[[FTMP:.+]] = stream.resource.dealloca origin await(%[[D2]]) %[[TMP]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[ALL]], %[[D2]])
// CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[J]], %[[FACC]], %[[FTMP]])
// CHECK-NEXT: scf.yield %[[NEW]], %[[D2]], %[[J2]]
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[L]]#1) (%[[L]]#0,
// CHECK-NEXT: stream.resource.size %[[L]]#0
// CHECK-NEXT: %[[FR:.+]] = stream.resource.dealloca origin await(%[[U]]) %[[L]]#0
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FR]], %[[L]]#2)
// CHECK-NEXT: stream.timepoint.await %[[END]]
func.func @for_replaced(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %tmp, %tmpt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%acct, %newt, %tmpt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%acc, %acc, %tmp) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%d) (%tmp, %tmp, %new) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d2) => !stream.timepoint
    scf.yield %new, %d2, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// scf.if: a captured resource is freed after the if, on its done timepoint;
// an allocation local to a branch is freed in that branch, folded into the
// done timepoint the branch yields.
// CHECK-LABEL: func.func @if_captured_and_local
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[DONE:.+]] = scf.if
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[X]], %[[X]], %[[T]])
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[D]], %[[FT]])
// CHECK-NEXT: scf.yield %[[J]]
// CHECK: } else {
// CHECK-NOT: stream.resource.dealloca
// CHECK: }
// CHECK-NEXT: %[[XJ2:.+]] = stream.timepoint.join max(%[[DONE]], %{{.+}})
// CHECK-NEXT: %[[FX:.+]] = stream.resource.dealloca origin await(%[[XJ2]]) %[[X]]
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FX]], %[[DONE]])
// CHECK-NEXT: stream.timepoint.await %[[END]]
func.func @if_captured_and_local(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %done = scf.if %c -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %d : !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %i : !stream.timepoint
  }
  return
}

// -----

// scf.if: a value each branch allocates and yields is owned after the if,
// freed after its last use outside.
// CHECK-LABEL: func.func @if_yielded_then_dropped
// CHECK: %[[IF:.+]]:3 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[IF]]#0, %[[IF]]#0, %[[IF]]#0)
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[IF]]#0
// CHECK-NEXT: stream.resource.dealloca origin await(%[[U]]) %[[IF]]#0 : !stream.resource<transient>{%[[SZ]]}
func.func @if_yielded_then_dropped(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %r, %rt, %done = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// scf.while: the before region reads the carried value back on the host and
// passes it on through scf.condition; the after region replaces it with a
// new allocation (the old one freed there after its last use) and frees a
// local allocation; a captured resource is freed after the loop on its done
// timepoint; the result is freed after its last use outside.
// CHECK-LABEL: func.func @while_loop
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[W:.+]]:3 = scf.while
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.condition
// CHECK: ^bb0(%[[B:[^:]+]]: !stream.resource<transient>, %{{.+}}: !stream.timepoint, %[[ALL:[^:]+]]: !stream.timepoint):
// CHECK: %[[NEW:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[TMP:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[B]], %[[X]], %[[TMP]])
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[B]]
// CHECK-NEXT: %[[FB:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[B]]
// CHECK-NEXT: %[[D2:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[TMP]], %[[TMP]], %[[NEW]])
// CHECK-NEXT: %[[FTMP:.+]] = stream.resource.dealloca origin await(%[[D2]]) %[[TMP]]
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[ALL]], %[[D2]])
// CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[J]], %[[FB]], %[[FTMP]])
// CHECK-NEXT: scf.yield %[[NEW]], %[[D2]], %[[J2]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[XJ3:.+]] = stream.timepoint.join max(%[[W]]#2, %{{.+}})
// CHECK-NEXT: %[[FX:.+]] = stream.resource.dealloca origin await(%[[XJ3]]) %[[X]]
// CHECK-NEXT: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[W]]#0,
// CHECK-NEXT: stream.resource.size %[[W]]#0
// CHECK-NEXT: %[[FR:.+]] = stream.resource.dealloca origin await(%[[U]]) %[[W]]#0
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FX]], %[[FR]], %[[W]]#2)
// CHECK-NEXT: stream.timepoint.await %[[END]]
func.func @while_loop(%s: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : i32
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.while (%b = %a, %bt = %at, %ball = %t0) : (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %ready = stream.timepoint.await %bt => %b : (!stream.resource<transient>{%s})
    %v = stream.resource.load %ready[%c0] : !stream.resource<transient>{%s} -> i32
    %more = arith.cmpi slt, %v, %c10 : i32
    scf.condition(%more) %b, %bt, %ball : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } do {
  ^bb0(%b2: !stream.resource<transient>, %bt2: !stream.timepoint, %all: !stream.timepoint):
    %new, %newt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %tmp, %tmpt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%bt2, %xt, %newt, %tmpt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%b2, %x, %tmp) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%d) (%tmp, %tmp, %new) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d2) => !stream.timepoint
    scf.yield %new, %d2, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// Nested loops carrying one accumulator: the outer iter_arg is handed to the
// inner loop, whose result the outer body yields, so nothing carried is
// freed inside; an allocation local to the inner body is freed there; a
// resource captured by the inner body is freed after the outer loop.
// CHECK-LABEL: func.func @nested_loops
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[OUTER:.+]]:3 = scf.for
// CHECK: %[[INNER:.+]]:3 = scf.for
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[INNER]]#0, %[[INNER]]#1, %{{.+}}
// CHECK-NEXT: }
// CHECK-NEXT: stream.resource.size %[[OUTER]]#0
// CHECK-NEXT: stream.resource.dealloca origin await(%[[OUTER]]#1) %[[OUTER]]#0
// CHECK-NEXT: %[[XJ4:.+]] = stream.timepoint.join max(%[[OUTER]]#2, %{{.+}})
// CHECK-NEXT: stream.resource.dealloca origin await(%[[XJ4]]) %[[X]]
func.func @nested_loops(%n: index, %m: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %t1 = stream.timepoint.immediate => !stream.timepoint
    %r2, %rt2, %done2 = scf.for %j = %c0 to %m step %c1 iter_args(%acc2 = %acc, %acct2 = %acct, %all2 = %t1) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%acct2, %xt, %tt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %t, %acc2) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %all3 = stream.timepoint.join max(%all2, %d) => !stream.timepoint
      scf.yield %acc2, %d, %all3 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    %all4 = stream.timepoint.join max(%all, %done2) => !stream.timepoint
    scf.yield %r2, %rt2, %all4 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

// A loop inside an if: the captured resource is freed after the if (the
// outermost op of its block using it), on the if's done timepoint; the
// loop's local allocation is freed in the loop body, and the frees reach
// the function's final await through both done timepoints.
// CHECK-LABEL: func.func @loop_in_if
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[IF:.+]] = scf.if
// CHECK: %[[L:.+]]:2 = scf.for
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK: %[[J:.+]] = stream.timepoint.join max(%{{.+}}, %[[FT]])
// CHECK-NEXT: scf.yield %{{.+}}, %[[J]]
// CHECK: scf.yield %[[L]]#1
// CHECK: %[[XJ5:.+]] = stream.timepoint.join max(%[[IF]], %{{.+}})
// CHECK-NEXT: %[[FX:.+]] = stream.resource.dealloca origin await(%[[XJ5]]) %[[X]]
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FX]], %[[IF]])
// CHECK-NEXT: stream.timepoint.await %[[END]]
func.func @loop_in_if(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %done = scf.if %c -> (!stream.timepoint) {
    %t0 = stream.timepoint.immediate => !stream.timepoint
    %k, %ldone = scf.for %i = %c0 to %n step %c1 iter_args(%kk = %c0, %all = %t0) -> (index, !stream.timepoint) {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
      scf.yield %kk, %all2 : index, !stream.timepoint
    }
    scf.yield %ldone : !stream.timepoint
  } else {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %i : !stream.timepoint
  }
  return
}

// -----

// An if inside a loop: the branch's local allocation is freed in the
// branch; the captured resource is freed after the loop.
// CHECK-LABEL: func.func @if_in_loop
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[L:.+]] = scf.for
// CHECK: %[[IF:.+]] = scf.if
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[D]], %[[FT]])
// CHECK-NEXT: scf.yield %[[J]]
// CHECK: %[[J2:.+]] = stream.timepoint.join max(%{{.+}}, %[[IF]])
// CHECK-NEXT: scf.yield %[[J2]] : !stream.timepoint
// CHECK-NEXT: }
// CHECK-NEXT: %[[XJ6:.+]] = stream.timepoint.join max(%[[L]], %{{.+}})
// CHECK-NEXT: %[[FX:.+]] = stream.resource.dealloca origin await(%[[XJ6]]) %[[X]]
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FX]], %[[L]])
// CHECK-NEXT: stream.timepoint.await %[[END]]
func.func @if_in_loop(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %idone = scf.if %c -> (!stream.timepoint) {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      scf.yield %d : !stream.timepoint
    } else {
      %i0 = stream.timepoint.immediate => !stream.timepoint
      scf.yield %i0 : !stream.timepoint
    }
    %all2 = stream.timepoint.join max(%all, %idone) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  return
}

// -----

// scf.execute_region: a local allocation is freed inside, a captured one
// after it.
// CHECK-LABEL: func.func @execute_region
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[E:.+]] = scf.execute_region
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[D]], %[[FT]])
// CHECK-NEXT: scf.yield %[[J]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[XJ7:.+]] = stream.timepoint.join max(%[[E]], %{{.+}})
// CHECK-NEXT: stream.resource.dealloca origin await(%[[XJ7]]) %[[X]]
func.func @execute_region(%s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %done = scf.execute_region -> !stream.timepoint {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %d : !stream.timepoint
  }
  return
}

// -----

// A value passed into a loop without a clone and read after it (the loop
// only reads it): the position does not own it, the resource is freed after
// its last use, here through the loop's result.
// CHECK-LABEL: func.func @read_only_pass
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[L:.+]]:3 = scf.for
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[U1:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[A]],
// CHECK-NEXT: %[[U2:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[L]]#0,
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[L]]#2, %[[U1]], %[[U2]], %{{.+}})
// CHECK-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[A]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @read_only_pass(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %acc, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %acc, %acct, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u1 = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%at) (%a, %a, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %u2 = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

func.func private @keep(tensor<4xi32>) -> tensor<4xi32>

// Inside a body the existing rules hold: a local allocation passed to an
// external function that may keep it is released and freed only if the
// program was the last owner; the call's new result is freed after it.
// CHECK-LABEL: func.func @release_in_body
// CHECK: scf.for
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[R:.+]], %[[C:.+]] = stream.cmd.call @keep(%[[T]])
// CHECK-DAG: stream.resource.dealloca origin await(%[[C]]) %[[R]] :
// CHECK-DAG: %[[LAST:.+]] = stream.resource.release %[[T]]
// CHECK-DAG: stream.resource.dealloca origin if(%[[LAST]]) await(%[[C]]) %[[T]] :
// CHECK: scf.yield
func.func @release_in_body(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %r, %c = stream.cmd.call @keep(%t) await(%tt) : (!stream.resource<transient>{%s}) -> (!stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %c) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  return
}

// -----

// scf.index_switch, like scf.if: a captured resource is freed after the
// switch, on its done timepoint; an allocation local to a case is freed in
// that case, folded into the done timepoint it yields.
// CHECK-LABEL: func.func @switch_captured_and_local
// CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[DONE:.+]] = scf.index_switch
// CHECK: case 0 {
// CHECK-NOT: stream.resource.dealloca
// CHECK: case 1 {
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[X]], %[[X]], %[[T]])
// CHECK-NEXT: %[[FT:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[D]], %[[FT]])
// CHECK-NEXT: scf.yield %[[J]]
// CHECK: default {
// CHECK-NOT: stream.resource.dealloca
// CHECK: }
// CHECK-NEXT: %[[XJ2:.+]] = stream.timepoint.join max(%[[DONE]], %{{.+}})
// CHECK-NEXT: %[[FX:.+]] = stream.resource.dealloca origin await(%[[XJ2]]) %[[X]]
// CHECK-NEXT: %[[END:.+]] = stream.timepoint.join max(%[[FX]], %[[DONE]])
// CHECK-NEXT: stream.timepoint.await %[[END]]
// CHECK-NOT: indeterminate
func.func @switch_captured_and_local(%sel: index, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %done = scf.index_switch %sel -> !stream.timepoint
  case 0 {
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%xt) (%x, %x, %x) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %d : !stream.timepoint
  }
  case 1 {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%xt, %tt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%x, %x, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %d : !stream.timepoint
  }
  default {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %i : !stream.timepoint
  }
  return
}

// -----

// scf.index_switch: a value every case allocates and yields is owned after
// the switch and freed after its last use outside; a value made before the
// switch that one case yields as its last use is handed out there and freed
// at the end of the other cases.
// CHECK-LABEL: func.func @switch_yielded_and_handed_out
// CHECK: %[[Y:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[SW:.+]]:3 = scf.index_switch
// CHECK: case 0 {
// CHECK: stream.resource.dealloca {{.*}}%[[Y]] :
// CHECK: scf.yield
// CHECK: case 1 {
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[Y]],
// CHECK: default {
// CHECK: stream.resource.dealloca {{.*}}%[[Y]] :
// CHECK: scf.yield
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[SW]]#0, %[[SW]]#0, %[[SW]]#0)
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[SW]]#0
// CHECK-NEXT: stream.resource.dealloca origin await(%[[U]]) %[[SW]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK-NOT: indeterminate
func.func @switch_yielded_and_handed_out(%sel: index, %s: index) {
  %c4 = arith.constant 4 : index
  %y, %yt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %rt, %done = scf.index_switch %sel -> !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  case 0 {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%yt, %tt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%w) (%y, %y, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  case 1 {
    %i = stream.timepoint.immediate => !stream.timepoint
    scf.yield %y, %yt, %i : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  default {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// A value made before an scf.if that each branch yields as its last use, at
// a different position in each (a lifted cf loop moving one accumulator into
// another's place), is handed out by both: no branch frees it and nothing is
// indeterminate. A value only the then branch yields is freed in the else
// branch.
// CHECK-LABEL: func.func @if_hands_out_at_different_positions
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[B:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[IF:.+]]:4 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[A]], %[[B]],
// CHECK: } else {
// CHECK: %[[N:.+]], %{{.+}} = stream.resource.alloca
// CHECK-NOT: dealloca {{.*}}%[[B]]
// CHECK: stream.resource.dealloca origin await(%{{.+}}) %[[A]] :
// CHECK-NOT: dealloca {{.*}}%[[B]]
// CHECK: scf.yield %[[B]], %[[N]],
// CHECK-DAG: stream.resource.dealloca origin {{.*}}%[[IF]]#0 :
// CHECK-DAG: stream.resource.dealloca origin {{.*}}%[[IF]]#1 :
// CHECK-NOT: indeterminate
func.func @if_hands_out_at_different_positions(%cond: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r:4 = scf.if %cond -> (!stream.resource<transient>, !stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %j = stream.timepoint.join max(%at, %bt) => !stream.timepoint
    scf.yield %a, %b, %j, %j : !stream.resource<transient>, !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %n, %nt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %w = stream.timepoint.join max(%bt, %nt) => !stream.timepoint
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%w) (%b, %b, %n) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %b, %n, %d, %d : !stream.resource<transient>, !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%r#2) (%r#0, %r#1, %r#1) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}
