// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal --verify-diagnostics

// Timepoints and resources do not cross function boundaries yet.
// expected-error @+1 {{function 'boundary' passes stream resources or timepoints across its boundary}}
func.func @boundary(%t: !stream.timepoint) {
  stream.timepoint.await %t
  return
}

// -----

// A device an affinity names must be declared: reported where the affinity
// is written, not a crash looking up the link.
hal.device.global @a = #hal.device.target<"local", {}>
func.func @undeclared(%n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  // expected-error @+1 {{'stream.affinity' names device @b, which the module does not declare (no hal.device.global @b); it declares @a}}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  stream.timepoint.await %d
  return
}

// -----

// Also when the module declares no device at all (before the default one
// is added).
// expected-error @+1 {{'stream.affinity' names device @gpu, which the module does not declare (no hal.device.global @gpu); it declares no device}}
func.func @none_declared(%n: index) attributes {stream.affinity = #hal.device.affinity<@gpu>} {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.resource.dealloca await(%ta) %t : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %f
  return
}

// -----

// A resource chosen by an op other than the scf region ops reaches no queue
// operation: nothing lowered defines it (it used to become a null dispatch
// binding).
func.func @resource_from_select(%view: !hal.buffer_view, %c: i1, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  // expected-error @+1 {{a stream resource or timepoint flows through 'arith.select', which cannot be lowered to hal: they may only flow between stream ops and scf.for, scf.while, scf.if, scf.index_switch and scf.execute_region}}
  %r = arith.select %c, %a, %t : !stream.resource<external>
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%r, %r, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %o = stream.timepoint.await %d => %t : (!stream.resource<external>{%s})
  %out = stream.tensor.export %o : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// The same for a timepoint (whose wait used to be dropped silently).
func.func @timepoint_from_select(%c: i1, %n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  // expected-error @+1 {{a stream resource or timepoint flows through 'arith.select'}}
  %w = arith.select %c, %ta, %ta : !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%w) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  stream.timepoint.await %d
  return
}

// -----

// Stream ops inside the region of an op other than the scf region ops are
// not lowered.
func.func @nested(%c: index, %n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  scf.parallel (%i) = (%c0) to (%c) step (%c1) {
    // expected-error @+1 {{'stream.cmd.dispatch' inside 'scf.parallel' cannot be lowered to hal: only stream code of the function's block, and of the bodies of scf.for, scf.while, scf.if, scf.index_switch and scf.execute_region ops lowered with it, can}}
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    scf.reduce
  }
  stream.timepoint.await %ta
  return
}

// -----

// An scf.if inside an op the lowering does not go through is not lowered
// through either: the stream op in it is named.
func.func @if_in_parallel(%c: index, %b: i1, %n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  scf.parallel (%i) = (%c0) to (%c) step (%c1) {
    scf.if %b {
      // expected-error @+1 {{'stream.cmd.dispatch' inside 'scf.if' cannot be lowered to hal}}
      %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    }
    scf.reduce
  }
  stream.timepoint.await %ta
  return
}
