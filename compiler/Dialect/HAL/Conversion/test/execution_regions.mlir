// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// An execution region becomes its commands in order on one queue: the first
// waits on the region's await fence (the allocation's), each later one on
// the one before (every queue op signals a fence of its own, and the chain
// carries a failure on), and the last signals the fence the host awaits.
// CHECK-LABEL: func.func @region
// CHECK: %[[DEV:.+]] = hal.device.get @__device_0
// CHECK: %[[ALLOCATED:.+]] = hal.fence.create
// CHECK: %[[BUF:.+]] = hal.device.queue.alloca<%[[DEV]] : !hal.device> signal(%[[ALLOCATED]])
// CHECK-NOT: hal.fence.join
// CHECK: %[[F1:.+]] = hal.fence.create
// CHECK: hal.device.queue.fill<%[[DEV]] : !hal.device> wait(%[[ALLOCATED]]) signal(%[[F1]]) target(%[[BUF]] : !hal.buffer)
// CHECK: %[[F2:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.dispatch<%[[DEV]] : !hal.device> wait(%[[F1]]) signal(%[[F2]]) kernel("add") type(i32) count(%{{.+}}) bindings(%[[BUF]], %[[BUF]], %[[BUF]])
// CHECK: %[[F3:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.copy<%[[DEV]] : !hal.device> wait(%[[F2]]) signal(%[[F3]]) source(%[[BUF]] : !hal.buffer)
// CHECK-NOT: hal.fence.join
// CHECK: hal.fence.await until([%[[F3]]])
func.func @region(%n: index, %s: index) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %r, %rt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %e = stream.cmd.execute await(%rt) with(%r as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%arg0, %arg0, %arg0) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %2 = stream.cmd.copy %arg0[%c0], %arg0[%c0], %c0 : !stream.resource<transient>{%s} -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  stream.timepoint.await %e
  return
}

// -----

// A region placed on @b runs every command on @b's queue, also those that
// name no device themselves. The region is a user of the memory on @b, so
// the allocation is chosen for @a and @b; local devices reach each other's
// memory, so no import.
// CHECK-LABEL: func.func @placed
// CHECK-DAG: %[[A:.+]] = hal.device.get @a
// CHECK-DAG: %[[B:.+]] = hal.device.get @b
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>)
// CHECK: %[[ALLOCATOR:.+]] = hal.allocator.select from([%[[A]], %[[B]]])
// CHECK: %[[BUF:.+]] = hal.device.queue.alloca<%[[ALLOCATOR]] : !hal.device>
// CHECK-NOT: hal.device.import_buffer
// CHECK: hal.device.queue.fill<%[[B]] : !hal.device> wait(%{{.+}}) signal(%[[F1:.+]]) target(%[[BUF]] : !hal.buffer)
// CHECK: hal.device.queue.fill<%[[B]] : !hal.device> wait(%[[F1]]) signal(%{{.+}}) target(%[[BUF]] : !hal.buffer)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @placed(%s: index) {
    %c1 = arith.constant 1 : i32
    %r, %rt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %e = stream.cmd.execute on(#hal.device.affinity<@b>) await(%rt) with(%r as %arg0: !stream.resource<transient>{%s}) {
      %0 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
      %1 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    } => !stream.timepoint
    stream.timepoint.await %e
    return
  }
}
