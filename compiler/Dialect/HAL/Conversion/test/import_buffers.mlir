// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// Whether @a and @b reach each other's memory is known only at run time:
// every queue operation uses a buffer allocated by the select through an
// import into its own device (the runtime hands back the buffer itself
// where memory is shared), one import per buffer and device, waiting for
// the alloca. Deallocation, ownership and the exported view keep the
// original buffer. The function's own argument may live on either device
// (the host chose), so its use on @b goes through an import too.
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @runtime_link(
  // CHECK-DAG: %[[A:.+]] = hal.device.get @a : !hal.device
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b : !hal.device
  // CHECK: %[[IN:.+]] = hal.buffer_view.buffer
  // CHECK: %[[SEL:.+]] = hal.allocator.select from([%[[A]], %[[B]]])
  // CHECK: %[[ALLOCATED:.+]] = hal.fence.create device(%[[SEL]] : !hal.device)
  // CHECK: %[[T:.+]] = hal.device.queue.alloca<%[[SEL]] : !hal.device> signal(%[[ALLOCATED]])
  // CHECK: %[[TA:.+]] = hal.device.import_buffer<%[[A]] : !hal.device> buffer(%[[T]] : !hal.buffer) wait(%[[ALLOCATED]]) : !hal.buffer
  // CHECK: hal.device.queue.fill<%[[A]] : !hal.device> {{.*}} target(%[[TA]] : !hal.buffer)
  // CHECK: %[[TB:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%[[T]] : !hal.buffer) wait(%[[ALLOCATED]]) : !hal.buffer
  // CHECK: %[[INB:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%[[IN]] : !hal.buffer) : !hal.buffer
  // CHECK: hal.device.queue.dispatch<%[[B]] : !hal.device> {{.*}} kernel("mul") type(i32) count(%{{.+}}) bindings(%[[TB]], %[[INB]], %[[TB]])
  // CHECK-NOT: hal.device.import_buffer
  // CHECK: hal.device.queue.dispatch<%[[B]] : !hal.device> {{.*}} kernel("add") type(i32) count(%{{.+}}) bindings(%[[TB]], %[[TB]], %[[TB]])
  // CHECK: hal.buffer.allocation.preserve<%[[T]] : !hal.buffer>
  // CHECK: hal.buffer_view.create buffer(%[[T]] : !hal.buffer)
  func.func @runtime_link(%view: !hal.buffer_view) -> !hal.buffer_view {
    %n = arith.constant 4 : index
    %s = arith.constant 16 : index
    %c7 = arith.constant 7 : i32
    %in = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
    %t, %ta = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %f = stream.cmd.fill %c7, %t await(%ta) : i32 -> !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%f) (%t, %in, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%d) (%t, %t, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    stream.resource.retain %t : !stream.resource<external>{%s}
    %r = stream.timepoint.await %d2 => %t : (!stream.resource<external>{%s})
    %out = stream.tensor.export %r : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
    return %out : !hal.buffer_view
  }
}

// -----

// The default topology of two local devices is transparent both ways: no
// imports.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @transparent(
// CHECK-NOT: hal.device.import_buffer
// CHECK: return
func.func @transparent() {
  %n = arith.constant 4 : index
  %s = arith.constant 16 : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  %d = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%d) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  %f = stream.resource.dealloca await(%d2) %t : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %f
  return
}

// -----

// One direction only: @b reaches @a's memory but not the reverse, so only
// the copy on @a imports (both its buffers, one of each).
module attributes {stream.topology = #hal.device.topology<links = [
    (@b -> @a = {transparent_access = true}),
    (@a -> @b = {import_handle_types = ["opaque_fd"], export_handle_types = ["opaque_fd"]})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @one_direction(
  // CHECK-DAG: %[[A:.+]] = hal.device.get @a : !hal.device
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b : !hal.device
  // CHECK: %[[T:.+]] = hal.device.queue.alloca
  // CHECK: %[[U:.+]] = hal.device.queue.alloca
  // CHECK-NOT: hal.device.import_buffer
  // CHECK: hal.device.queue.fill<%[[B]] : !hal.device> {{.*}} target(%[[T]] : !hal.buffer)
  // CHECK: %[[TA:.+]] = hal.device.import_buffer<%[[A]] : !hal.device> buffer(%[[T]] : !hal.buffer)
  // CHECK: %[[UA:.+]] = hal.device.import_buffer<%[[A]] : !hal.device> buffer(%[[U]] : !hal.buffer)
  // CHECK: hal.device.queue.copy<%[[A]] : !hal.device> {{.*}} source(%[[TA]] : !hal.buffer) [%{{.+}}] target(%[[UA]] : !hal.buffer)
  func.func @one_direction() {
    %c0 = arith.constant 0 : index
    %s = arith.constant 16 : index
    %c1 = arith.constant 1 : i32
    %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %f = stream.cmd.fill %c1, %t await(%ta) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %j = stream.timepoint.join max(%f, %ua) => !stream.timepoint
    %c = stream.cmd.copy %t[%c0], %u[%c0], %s await(%j) : !stream.resource<transient>{%s} -> !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %x = stream.resource.dealloca await(%c) %t : !stream.resource<transient>{%s} => !stream.timepoint
    %y = stream.resource.dealloca await(%c) %u : !stream.resource<transient>{%s} => !stream.timepoint
    %all = stream.timepoint.join max(%x, %y) => !stream.timepoint
    stream.timepoint.await %all
    return
  }
}
