// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// The devices an allocation is resolved for come in program order of its
// uses (the first is where the default topology allocates it, and where
// stream-estimate-peak-memory counts it), not in use-list order, which
// depends on how the IR was built or parsed: the fill has no affinity
// (the default device, last), the region runs on @b, and the returned
// view may be used on the caller's @a.
// CHECK-LABEL: func.func private @produce
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@b>, #hal.device.affinity<@a>]>) lifetime(external)
// Uses inside a region op count where they are in the program: the buffer
// carried into the loop is used there on @b before the fill after the loop
// uses it on @a (the loop itself, which only carries it, is no use).
// CHECK-LABEL: func.func @carried
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@b>, #hal.device.affinity<@a>]>) lifetime(transient)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @produce() -> !hal.buffer_view {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.000000e+00 : f64
    %r, %ra = stream.resource.alloca uninitialized : !stream.resource<external>{%c8} => !stream.timepoint
    %f = stream.cmd.fill %zero, %r await(%ra) : f64 -> !stream.resource<external>{%c8} => !stream.timepoint
    %e = stream.cmd.execute on(#hal.device.affinity<@b>) await(%f) with(%r as %arg0: !stream.resource<external>{%c8}) {
      %0 = stream.cmd.dispatch kernel("add") type(f64) count(%c1) (%arg0, %arg0, %arg0) : (!stream.resource<external>{%c8}, !stream.resource<external>{%c8}, !stream.resource<external>{%c8}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    } => !stream.timepoint
    %ready = stream.timepoint.await %e => %r : (!stream.resource<external>{%c8})
    %view = stream.tensor.export %ready : tensor<1xf64> in !stream.resource<external>{%c8} -> !hal.buffer_view
    return %view : !hal.buffer_view
  }
  func.func @carried(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.000000e+00 : f64
    %r, %ra = stream.resource.alloca uninitialized : !stream.resource<transient>{%c8} => !stream.timepoint
    %l:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r, %t = %ra) -> (!stream.resource<transient>, !stream.timepoint) {
      %d = stream.cmd.dispatch kernel("add") type(f64) count(%c1) await(%t) (%acc, %acc, %acc) : (!stream.resource<transient>{%c8}, !stream.resource<transient>{%c8}, !stream.resource<transient>{%c8}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
      scf.yield %acc, %d : !stream.resource<transient>, !stream.timepoint
    }
    %f = stream.cmd.fill %zero, %l#0 await(%l#1) : f64 -> !stream.resource<transient>{%c8} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %g = stream.resource.dealloca await(%f) %l#0 : !stream.resource<transient>{%c8} => !stream.timepoint
    stream.timepoint.await %g
    return
  }
  func.func @main() attributes {stream.affinity = #hal.device.affinity<@a>} {
    %v = call @produce() {stream.affinity = #hal.device.affinity<@a>} : () -> !hal.buffer_view
    return
  }
}

// -----

// A call result written into a buffer in place is that buffer: a dispatch
// on @b using the result is a use of the buffer, so it is resolved for
// both devices (the call on @a first).
// CHECK-LABEL: func.func @tied_call_result
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(external)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @inplace(tensor<1xf64>) -> tensor<1xf64> attributes {iree.abi.model = "coarse-fences", nosideeffects, stream.tied_operands = array<i64: 0>}
  func.func @tied_call_result() attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %r, %ra = stream.resource.alloca uninitialized : !stream.resource<transient>{%c8} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %w, %c = stream.cmd.call @inplace(%r) await(%ra) : (!stream.resource<transient>{%c8}) -> (%r{%c8}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %d = stream.cmd.dispatch kernel("add") type(f64) count(%c1) await(%c) (%w, %w, %w) : (!stream.resource<transient>{%c8}, !stream.resource<transient>{%c8}, !stream.resource<transient>{%c8}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %g = stream.resource.dealloca await(%d) %r : !stream.resource<transient>{%c8} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    stream.timepoint.await %g
    return
  }
}
