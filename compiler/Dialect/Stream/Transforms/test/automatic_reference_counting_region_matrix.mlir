// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting | FileCheck %s

// Issue 15's matrix of region kinds and reference-counting behaviours, for
// the cells automatic_reference_counting_regions.mlir does not cover: a
// value yielded out of a region and then dropped is freed after its last
// use outside, for a loop in an if, an if in a loop and an inner loop of
// nested loops. Stage-2 IR as in that file: each region op carries a
// resource with its ready timepoint and ends with an "everything done"
// timepoint. None of these needs an indeterminate allocation.

// A loop in an if: the then branch yields the result of a loop carrying an
// allocation made in the branch, the else branch an allocation of its own;
// nothing is freed inside the if, and the if's result is freed after its
// last use outside, on that use's timepoint.
// CHECK-LABEL: func.func @loop_in_if_yielded_then_dropped
// CHECK-NOT: indeterminate
// CHECK: %[[IF:.+]]:3 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[IF]]#1) (%[[IF]]#0, %[[IF]]#0, %[[IF]]#0)
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[IF]]#0
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[U]]) %[[IF]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK-NOT: stream.resource.dealloca
// CHECK: stream.timepoint.await
func.func @loop_in_if_yielded_then_dropped(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r, %rt, %done = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %t0 = stream.timepoint.immediate => !stream.timepoint
    %l, %lt, %ldone = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %acc, %acc) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
      scf.yield %acc, %d, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    scf.yield %l, %lt, %ldone : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("sub") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// An if in a loop: the if yields an allocation each branch makes; the loop
// body reads it after the if and drops it, so it is freed in the body
// after that read, and the free is folded into the done timepoint the body
// passes on.
// CHECK-LABEL: func.func @if_in_loop_yielded_then_dropped
// CHECK-NOT: indeterminate
// CHECK: scf.for {{.+}} iter_args(%[[ALL:[^ ]+]] = %{{.+}})
// CHECK: %[[IF:.+]]:3 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[IF]]#1) (%[[IF]]#0, %[[IF]]#0, %[[IF]]#0)
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[IF]]#0
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[U]]) %[[IF]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[ALL]], %[[U]], %[[IF]]#2)
// CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[J]], %[[F]])
// CHECK-NEXT: scf.yield %[[J2]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @if_in_loop_yielded_then_dropped(%c: i1, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %r, %rt, %idone = scf.if %c -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    } else {
      %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
      %d = stream.cmd.dispatch kernel("sub") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      scf.yield %t, %d, %d : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %u, %idone) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  return
}

// -----

// Nested loops: the outer body allocates the inner loop's init; the inner
// loop's result is read in the outer body and dropped there, so it is
// freed in the outer body after that read (not after the outer loop).
// CHECK-LABEL: func.func @nested_inner_yielded_then_dropped
// CHECK-NOT: indeterminate
// CHECK: scf.for {{.+}} iter_args(%[[ALL:[^ ]+]] = %{{.+}})
// CHECK: %[[INNER:.+]]:3 = scf.for
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[U:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[INNER]]#1) (%[[INNER]]#0, %[[INNER]]#0, %[[INNER]]#0)
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[INNER]]#0
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[U]]) %[[INNER]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK: scf.yield %{{.+}} : !stream.timepoint
// CHECK-NEXT: }
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @nested_inner_yielded_then_dropped(%n: index, %m: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %t1 = stream.timepoint.immediate => !stream.timepoint
    %r, %rt, %idone = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %a, %acct = %at, %iall = %t1) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %acc, %acc) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %iall2 = stream.timepoint.join max(%iall, %d) => !stream.timepoint
      scf.yield %acc, %d, %iall2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
    }
    %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%rt) (%r, %r, %r) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %u, %idone) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  return
}
