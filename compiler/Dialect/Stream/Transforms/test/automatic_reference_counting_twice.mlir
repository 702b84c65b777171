// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting --stream-automatic-reference-counting | FileCheck %s

// Running the pass again changes nothing: a resource whose ownership is
// already given up (a dealloca or a release is written) is left alone, not
// freed twice nor marked indeterminate.

// CHECK-LABEL: func.func @freed_once
// CHECK-NOT: indeterminate
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D]])
// CHECK-NOT: stream.resource.dealloca
// CHECK: stream.timepoint.await %[[F]]
// CHECK-NOT: stream.timepoint.await
// CHECK: return
func.func @freed_once(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// A consumed import is released once.
// CHECK-LABEL: func.func @released_once
// CHECK: stream.resource.release
// CHECK-NEXT: stream.resource.dealloca origin if
// CHECK-NOT: stream.resource.release
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @released_once(%v: !hal.buffer_view, %n: index, %out: !stream.resource<external>) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %owned = stream.tensor.import consume %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%owned, %owned, %out) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  return
}

// -----

// A dealloca written by hand is left as it is.
// CHECK-LABEL: func.func @hand_written
// CHECK-NOT: indeterminate
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: stream.resource.dealloca await(%[[D]])
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @hand_written(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %f
  return
}

// -----

// An allocation already marked indeterminate stays so, with no dealloca.
// CHECK-LABEL: func.func @indeterminate_once
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @indeterminate_once(%n: index, %s: index, %cond: i1) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  scf.if %cond {
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  }
  return
}

// -----

// Through a loop: the block argument, the body's local allocation and the
// loop's result are freed once each, and the body's done timepoint takes
// the frees in once.
// CHECK-LABEL: func.func @loop_freed_once
// CHECK: scf.for
// CHECK-COUNT-2: stream.resource.dealloca
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[J:.+]] = stream.timepoint.join max(%{{.+}}, %{{.+}})
// CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[J]], %{{.+}}, %{{.+}})
// CHECK-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[J2]]
// CHECK-NEXT: }
// CHECK-NEXT: stream.resource.size
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca
// CHECK-NOT: stream.resource.dealloca
// CHECK: stream.timepoint.await
// CHECK-NOT: stream.timepoint.await
// CHECK: return
func.func @loop_freed_once(%n: index, %s: index) {
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
  return
}
