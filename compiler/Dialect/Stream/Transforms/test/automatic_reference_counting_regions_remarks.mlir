// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting --verify-diagnostics | FileCheck %s

// Where ownership through a region cannot be decided, the pass says why in
// a remark naming the op (and the carried position).

// The same if, the captured value used no more after it: the else branch
// hands it out as the result, which owns it; the then branch, which yields
// its own allocation, frees it at its end, after what it did and after
// the captured value exists; the result is freed after its last use.
// CHECK-LABEL: func.func @handed_out_if
// CHECK: %[[X:[a-z_0-9]+]], %[[XT:[a-z_0-9]+]] = stream.resource.alloca uninitialized :
// CHECK: scf.if
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[W:.+]] = stream.timepoint.join max(%[[XT]], %[[D]])
// CHECK: stream.resource.dealloca origin await(%[[W]]) %[[X]] :
// CHECK: } else {
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield %[[X]]
// CHECK: stream.cmd.dispatch kernel("mul")
// CHECK: stream.resource.dealloca
func.func @handed_out_if(%c: i1, %s: index) {
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
  return
}

// -----

// A region op with no "everything done" timepoint result: a free after it
// could not be ordered on what it did.
// CHECK-LABEL: func.func @no_done_timepoint
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK-NOT: stream.resource.dealloca
func.func @no_done_timepoint(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  // expected-remark @+1 {{resource used inside 'scf.if' is indeterminate: the op has no "everything done" timepoint result}}
  scf.if %c {
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  }
  return
}

// -----

// A use inside a region by an op this pass does not follow.
// CHECK-LABEL: func.func @unknown_user
// CHECK: stream.resource.alloca uninitialized indeterminate
func.func @unknown_user(%c: i1, %s: index) {
  %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %done = scf.if %c -> (!stream.timepoint) {
    // expected-remark @+1 {{resource used inside 'scf.if' is indeterminate: its use by 'builtin.unrealized_conversion_cast' is not followed}}
    %u = builtin.unrealized_conversion_cast %t : !stream.resource<transient> to i32
    scf.yield %tt : !stream.timepoint
  } else {
    scf.yield %tt : !stream.timepoint
  }
  return
}

// -----

// A value lent to a loop (read-only pass, used again after it) whose loop
// has no "everything done" timepoint: its free could not wait for the
// loop's reads.
// CHECK-LABEL: func.func @lent_without_done
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK-NOT: stream.resource.dealloca
func.func @lent_without_done(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  // expected-remark @+1 {{resource used inside 'scf.for' is indeterminate: the op has no "everything done" timepoint result}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!stream.resource<transient>) {
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%at) (%acc, %acc, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.yield %acc : !stream.resource<transient>
  }
  %u = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%at) (%a, %a, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

