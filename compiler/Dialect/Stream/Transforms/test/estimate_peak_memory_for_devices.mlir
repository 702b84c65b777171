// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s

// The liveness walk through an scf.for whose carried buffers move between
// devices and whose trip count it does not know: it decides where the
// results are as the scf.while path does (one function): after no
// iteration or after one. In an scf.for a carried buffer that moves is a
// result that moves (an iteration passes on what it yields), so the bound
// is always stated.

// Ping-pong: a buffer on @a and one on @b swap positions each iteration,
// so after an odd number of iterations each result holds the buffer the
// other came in with. Each result is on both devices: freeing the second
// result (@b's buffer after an even number, @a's after an odd one) and
// then allocating 16 bytes on @a holds at most 32 bytes there (both @a
// buffers after an even number). (The walk compared no iteration with
// two, where the buffers are back in place: the results were on one
// device each, and @a counted 48, more than was ever allocated there.)
// CHECK-LABEL: remark: peak live bytes per device are an upper bound after this loop: it may run no iteration, and then leaves a carried buffer on another device than its iterations do
// CHECK: remark: peak live bytes: 32 (inputs 0, allocated 48)
// CHECK: remark: peak live bytes on @a: 32 (inputs 0, allocated 32)
// CHECK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @ping_pong(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = arith.constant 16 : index
    %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %y, %yt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x, %q = %y, %pt = %xt, %qt = %yt) -> (!stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint) {
      scf.yield %q, %p, %qt, %pt : !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint
    }
    %f1 = stream.resource.dealloca origin await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
    %z, %zt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %f2 = stream.resource.dealloca await(%zt) %z : !stream.resource<transient>{%s} => !stream.timepoint
    %f3 = stream.resource.dealloca origin await(%r#2) %r#0 : !stream.resource<external>{%s} => !stream.timepoint
    return
  }
}

// -----

// A carried buffer made on @a that each iteration replaces by a new one
// on @b: the result is on @a after no iteration and on @b after any, so
// the bound is stated, and 16 bytes allocated on @a while the result is
// live count it there. (@b allocates once per iteration walked, twice.)
// CHECK-LABEL: remark: peak live bytes per device are an upper bound after this loop: it may run no iteration
// CHECK: remark: peak live bytes on @a: 32 (inputs 0, allocated 32)
// CHECK: remark: peak live bytes on @b: 16 (inputs 0, allocated 32)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @moves(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = arith.constant 16 : index
    %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x, %pt = %xt) -> (!stream.resource<external>, !stream.timepoint) {
      %f = stream.resource.dealloca origin await(%pt) %p : !stream.resource<external>{%s} => !stream.timepoint
      %new, %newt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
      %w = stream.timepoint.join max(%f, %newt) => !stream.timepoint
      scf.yield %new, %w : !stream.resource<external>, !stream.timepoint
    }
    %z, %zt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %f2 = stream.resource.dealloca await(%zt) %z : !stream.resource<transient>{%s} => !stream.timepoint
    %f3 = stream.resource.dealloca origin await(%r#1) %r#0 : !stream.resource<external>{%s} => !stream.timepoint
    return
  }
}

// -----

// The same ping-pong in an scf.while: the walk stops where an iteration
// starts from the devices an earlier one started from (the swapped
// buffers back in place), instead of walking on until it gives up, and
// each result is on the devices any way out leaves it on.
// CHECK-LABEL: remark: peak live bytes per device are an upper bound after this loop: it may run no iteration (its condition
// CHECK-NOT: unknown
// CHECK: remark: peak live bytes: 32 (inputs 0, allocated 48)
// CHECK: remark: peak live bytes on @a: 32 (inputs 0, allocated 32)
// CHECK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @ping_pong_while(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = arith.constant 16 : index
    %x, %xt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %y, %yt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %r:5 = scf.while (%i = %c0, %p = %x, %q = %y, %pt = %xt, %qt = %yt) : (index, !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint) -> (index, !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %i, %p, %q, %pt, %qt : index, !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint
    } do {
    ^bb0(%j: index, %p2: !stream.resource<external>, %q2: !stream.resource<external>, %pt2: !stream.timepoint, %qt2: !stream.timepoint):
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1, %q2, %p2, %qt2, %pt2 : index, !stream.resource<external>, !stream.resource<external>, !stream.timepoint, !stream.timepoint
    }
    %f1 = stream.resource.dealloca origin await(%r#4) %r#2 : !stream.resource<external>{%s} => !stream.timepoint
    %z, %zt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %f2 = stream.resource.dealloca await(%zt) %z : !stream.resource<transient>{%s} => !stream.timepoint
    %f3 = stream.resource.dealloca origin await(%r#3) %r#1 : !stream.resource<external>{%s} => !stream.timepoint
    return
  }
}
