// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// A host load becomes hal.buffer.load of the resource's buffer, after the
// await of its producer's fence; the buffer is allocated host-mappable
// (lifetime external), so the read maps it rather than staging a copy. A
// fill with a float that is not a constant (a scalar argument) fills with
// its bit pattern.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %{{.+}}: !hal.buffer_view, %[[V:.+]]: f32) -> (i32, !hal.buffer_view)
// CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties lifetime(external)
// CHECK: %[[BUF:.+]] = hal.device.queue.alloca<{{.+}}> signal(%{{.+}}) type(%[[TYPES]]) usage(%[[USAGE]])
// CHECK: hal.device.queue.dispatch<{{.+}}> wait(%{{.+}}) signal(%[[DONE:.+]]) kernel("add")
// CHECK: hal.fence.await until([%[[DONE]]])
// CHECK-NEXT: %[[X:.+]] = hal.buffer.load<%[[BUF]] : !hal.buffer> [%{{.+}}] : i32
// CHECK: hal.device.queue.dealloca<{{.+}}> wait(%[[DONE]]) {{.+}} buffer(%[[BUF]] : !hal.buffer)
// CHECK: %[[BITS:.+]] = arith.bitcast %[[V]] : f32 to i32
// CHECK: hal.device.queue.fill<{{.+}} pattern(%[[BITS]] : i32)
// CHECK: return %[[X]], %{{.+}} : i32, !hal.buffer_view
module {
  func.func @main(%arg0: !hal.buffer_view, %arg1: f32) -> (i32, !hal.buffer_view) {
    %c8 = arith.constant 8 : index
    %c4 = arith.constant 4 : index
    %0 = stream.tensor.sizeof tensor<4xi32> : index
    %1 = stream.tensor.import %arg0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%0}
    %result, %result_timepoint = stream.resource.alloca uninitialized : !stream.resource<transient>{%0} => !stream.timepoint
    %2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%result_timepoint) (%1, %1, %result) : (!stream.resource<external>{%0}, !stream.resource<external>{%0}, !stream.resource<transient>{%0}) => !stream.timepoint
    %3 = stream.timepoint.await %2 => %result : (!stream.resource<transient>{%0}) 
    %4 = stream.resource.load %3[%c8] : !stream.resource<transient>{%0} -> i32
    %5 = stream.resource.dealloca origin await(%2) %result : !stream.resource<transient>{%0} => !stream.timepoint
    %6 = stream.tensor.sizeof tensor<4xf32> : index
    %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized : !stream.resource<external>{%6} => !stream.timepoint
    %7 = stream.cmd.fill %arg1, %result_0 await(%result_timepoint_1) : f32 -> !stream.resource<external>{%6} => !stream.timepoint
    %8 = stream.timepoint.await %7 => %result_0 : (!stream.resource<external>{%6}) 
    %9 = stream.tensor.export %8 : tensor<4xf32> in !stream.resource<external>{%6} -> !hal.buffer_view
    stream.timepoint.await %5
    return %4, %9 : i32, !hal.buffer_view
  }
}

// -----

// The size of a resource no op in scope names is its buffer's length.
// CHECK-LABEL: func.func @size_of_resource
// CHECK: %[[BUF:.+]] = hal.device.queue.alloca
// CHECK: %[[LEN:.+]] = hal.buffer.length<%[[BUF]] : !hal.buffer> : index
// CHECK: hal.device.queue.dealloca<{{.+}}> wait(%{{.+}}) {{.+}} buffer(%[[BUF]] : !hal.buffer)
module {
  func.func @size_of_resource(%s: index) {
    %r, %t = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %size = stream.resource.size %r : !stream.resource<transient> -> index
    %f = stream.resource.dealloca await(%t) %r : !stream.resource<transient>{%size} => !stream.timepoint
    stream.timepoint.await %f
    return
  }
}

// -----

// A function of the module reads an element of its argument on the host:
// the caller allocates what it passes there host-mappable (lifetime
// external), as for a load of its own, so the read maps the buffer rather
// than staging a copy the liveness walk does not count. Found by the
// random programs (a staged i64 added 8 bytes to peak_bytes).
// CHECK-LABEL: func.func @caller(
// CHECK: hal.allocator.resolve_memory_properties lifetime(external)
// CHECK: call @reads_element
module {
  func.func private @reads_element(%arg0: !hal.buffer_view) -> i32 {
    %c4 = arith.constant 4 : index
    %0 = stream.tensor.sizeof tensor<4xi32> : index
    %1 = stream.tensor.import %arg0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%0}
    %2 = stream.resource.load %1[%c4] : !stream.resource<external>{%0} -> i32
    return %2 : i32
  }
  func.func @caller(%arg0: !hal.buffer_view) -> i32 {
    %c4 = arith.constant 4 : index
    %0 = stream.tensor.sizeof tensor<4xi32> : index
    %1 = stream.tensor.import %arg0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%0}
    %result, %result_timepoint = stream.resource.alloca uninitialized : !stream.resource<external>{%0} => !stream.timepoint
    %2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%result_timepoint) (%1, %1, %result) : (!stream.resource<external>{%0}, !stream.resource<external>{%0}, !stream.resource<external>{%0}) => !stream.timepoint
    %3 = stream.timepoint.await %2 => %result : (!stream.resource<external>{%0})
    %4 = stream.tensor.export %3 : tensor<4xi32> in !stream.resource<external>{%0} -> !hal.buffer_view
    %5 = call @reads_element(%4) : (!hal.buffer_view) -> i32
    %6 = stream.resource.dealloca origin await(%2) %result : !stream.resource<external>{%0} => !stream.timepoint
    stream.timepoint.await %6
    return %5 : i32
  }
}

// -----

// Passed only to a function that does not read it on the host: transient
// (on a discrete device it stays device-local).
// CHECK-LABEL: func.func @caller_no_load(
// CHECK: hal.allocator.resolve_memory_properties lifetime(transient)
module {
  func.func private @forwards(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    return %arg0 : !hal.buffer_view
  }
  func.func @caller_no_load(%arg0: !hal.buffer_view) {
    %c4 = arith.constant 4 : index
    %0 = stream.tensor.sizeof tensor<4xi32> : index
    %1 = stream.tensor.import %arg0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%0}
    %result, %result_timepoint = stream.resource.alloca uninitialized : !stream.resource<external>{%0} => !stream.timepoint
    %2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%result_timepoint) (%1, %1, %result) : (!stream.resource<external>{%0}, !stream.resource<external>{%0}, !stream.resource<external>{%0}) => !stream.timepoint
    %3 = stream.timepoint.await %2 => %result : (!stream.resource<external>{%0})
    %4 = stream.tensor.export %3 : tensor<4xi32> in !stream.resource<external>{%0} -> !hal.buffer_view
    %5 = call @forwards(%4) : (!hal.buffer_view) -> !hal.buffer_view
    %6 = stream.resource.dealloca origin await(%2) %result : !stream.resource<external>{%0} => !stream.timepoint
    stream.timepoint.await %6
    return
  }
}
