// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting --verify-diagnostics | FileCheck %s

// Where ownership through a region cannot be decided, the pass says why in
// a remark naming the op (and the carried position).

// One branch yields a new allocation (owned), the other a value captured
// from outside without a clone and still used after the if (not owned):
// the result's owner is known only at run time. The allocation becomes
// indeterminate, as does the captured one (the result may be it); nothing
// is freed. (Were the captured value not used after the if, the result
// would own it: @handed_out_if.)
// CHECK-LABEL: func.func @mixed_if
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK-NOT: stream.resource.dealloca
func.func @mixed_if(%c: i1, %s: index) {
  %c4 = arith.constant 4 : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  // expected-remark @+1 {{carried position 0 of 'scf.if' is indeterminate: some values passed into it are owned by the program and some are not}}
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

// A loop whose init is the host's (a plain import, not owned) but whose body
// yields new allocations: mixed, named with its position.
// CHECK-LABEL: func.func @mixed_for
// CHECK: scf.for
// CHECK: stream.resource.alloca uninitialized indeterminate
// CHECK-NOT: stream.resource.dealloca {{.*}}%arg
func.func @mixed_for(%v: !hal.buffer_view, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t0 = stream.timepoint.immediate => !stream.timepoint
  // expected-remark @+1 {{carried position 1 of 'scf.for' is indeterminate}}
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

// An init the body also reads as a captured value is not handed to the
// loop (the position could free it while the body still reads it): the
// position holds a value the program still owns outside, and a new
// allocation yielded into it makes it mixed.
// CHECK-LABEL: func.func @init_also_captured
// CHECK: stream.resource.alloca uninitialized indeterminate
func.func @init_also_captured(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  // expected-remark @+1 {{carried position 0 of 'scf.for' is indeterminate}}
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
