// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// An external call under the coarse-fences ABI: views for the tensors, a
// wait and a signal fence; a tied result is its operand's buffer, a new
// result's view is checked against the declared type. The declaration is
// rewritten to the ABI: with a new result, one allocation request per result
// (device, memory types, usage) before the fences, usage 0 for the tied one.
// CHECK: func.func private @ext(!hal.buffer_view, !hal.buffer_view, !hal.device, i32, i32, !hal.device, i32, i32, !hal.fence, !hal.fence) -> (!hal.buffer_view, !hal.buffer_view)
// CHECK-SAME: ferry.abi.result_allocation
// CHECK-SAME: iree.abi.model = "coarse-fences"
// CHECK-LABEL: func.func @call
// CHECK: %[[A:.+]] = hal.device.queue.alloca
// CHECK-SAME: indeterminate
// CHECK: %[[B:.+]] = hal.device.queue.alloca
// CHECK: %[[VA:.+]] = hal.buffer_view.create buffer(%[[A]] : !hal.buffer) shape([%{{.+}}]) type(i32)
// CHECK: %[[VB:.+]] = hal.buffer_view.create buffer(%[[B]] : !hal.buffer) shape([%{{.+}}]) type(i32)
// An already-signalled fence stands in for "nothing to wait for".
// CHECK: %[[WAIT:.+]] = hal.fence.join at([]) -> !hal.fence
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// The new result is resolved like an alloca (transient: used by the program
// only) on the device of its users.
// CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties lifetime(transient)
// CHECK: %[[SIGNAL:.+]] = hal.fence.create
// CHECK: %[[R:.+]]:2 = call @ext(%[[VA]], %[[VB]], %[[DEV:.+]], %[[ZERO]], %[[ZERO]], %[[DEV]], %[[TYPES]], %[[USAGE]], %[[WAIT]], %[[SIGNAL]])
// CHECK: hal.buffer_view.assert<%[[R]]#1 : !hal.buffer_view> message("result 1 of 'ext'") shape([%{{.+}}]) type(f32)
// CHECK: %[[NEW:.+]] = hal.buffer_view.buffer<%[[R]]#1 : !hal.buffer_view>
// The tied result is %[[B]] itself.
// CHECK: hal.device.queue.dispatch<%{{.+}}> wait(%[[SIGNAL]]) signal(%{{.+}}) kernel("add") type(i32) count(%{{.+}}) bindings(%[[B]], %[[B]], %[[B]])
// Ownership ops act on the buffers.
// CHECK: hal.buffer.allocation.preserve<%[[NEW]] : !hal.buffer>
// CHECK: %[[TERM:.+]] = hal.buffer.allocation.is_terminal<%[[NEW]] : !hal.buffer> : i1
// CHECK: %[[LAST:.+]] = hal.buffer.allocation.discard<%[[NEW]] : !hal.buffer> : i1
// CHECK: hal.device.queue.dealloca<%{{.+}}> signal(%{{.+}}) buffer(%[[NEW]] : !hal.buffer) prefer_origin if(%[[LAST]])
func.func private @ext(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<4xf32>) attributes {stream.tied_operands = array<i64: 1, -1>}
func.func @call(%d: index, %s: index) -> i1 {
  %a, %at = stream.resource.alloca uninitialized indeterminate : !stream.resource<transient>{%s} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r:2, %t = stream.cmd.call @ext(%a, %b) dims(%d, %d) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}) -> (%b{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %n = arith.constant 4 : index
  %t2 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%t) (%b, %b, %b) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  stream.resource.retain %r#1 : !stream.resource<transient>{%s}
  %term = stream.resource.is_terminal %r#1 : !stream.resource<transient>{%s}
  %last = stream.resource.release %r#1 : !stream.resource<transient>{%s}
  %f = stream.resource.dealloca origin if(%last) %r#1 : !stream.resource<transient>{%s} => !stream.timepoint
  return %term : i1
}

// -----

// Fills take the pattern's bits (a float constant becomes its integer bit
// pattern); copies carry offsets and a length.
// CHECK-LABEL: func.func @fill_copy
// CHECK: %[[BITS:.+]] = arith.constant 1069547520 : i32
// CHECK: hal.device.queue.fill<%{{.+}}> wait(%{{.+}}) signal(%{{.+}}) target(%[[T:[0-9]+]] : !hal.buffer) [%{{.+}}, %{{.+}}] pattern(%[[BITS]] : i32)
// CHECK: hal.device.queue.copy<%{{.+}}> wait(%{{.+}}) signal(%{{.+}}) source(%[[T]] : !hal.buffer) [%{{.+}}] target(%{{.+}} : !hal.buffer) [%{{.+}}] length(%{{.+}})
func.func @fill_copy(%s: index) {
  %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %u, %ut = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %v = arith.constant 1.5 : f32
  %f = stream.cmd.fill %v, %t await(%tt) : f32 -> !stream.resource<transient>{%s} => !stream.timepoint
  %c0 = arith.constant 0 : index
  %j = stream.timepoint.join max(%f, %ut) => !stream.timepoint
  %c = stream.cmd.copy %t[%c0], %u[%c0], %s await(%j) : !stream.resource<transient>{%s} -> !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %c
  return
}

// -----

// A call that passes views (an external function with a new result of
// dynamic shape): an allocation request per result, resolved for the
// resource the result is imported as, the fences, and a wait for the callee
// before the result is imported.
// CHECK: func.func private @Repeat.function(!hal.buffer_view, !hal.device, i32, i32, !hal.fence, !hal.fence) -> !hal.buffer_view
// CHECK-SAME: ferry.abi.result_allocation
// CHECK-LABEL: func.func @view_call
// CHECK: %[[DEV:.+]] = hal.device.get @__device_0
// CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties lifetime(transient)
// CHECK: %[[WAIT:.+]] = hal.fence.join at([])
// CHECK: %[[SIGNAL:.+]] = hal.fence.create device(%[[DEV]] : !hal.device)
// CHECK: %[[R:.+]] = call @Repeat.function(%arg0, %[[DEV]], %[[TYPES]], %[[USAGE]], %[[WAIT]], %[[SIGNAL]])
// CHECK-NEXT: hal.fence.await until([%[[SIGNAL]]])
// CHECK: hal.buffer_view.assert<%[[R]] : !hal.buffer_view> message("result 0 of 'Repeat.function'")
func.func private @Repeat.function(!hal.buffer_view) -> !hal.buffer_view attributes {ferry.abi.result_allocation, iree.abi.model = "coarse-fences"}
func.func @view_call(%v: !hal.buffer_view) -> index {
  %r = call @Repeat.function(%v) : (!hal.buffer_view) -> !hal.buffer_view
  %n = hal.buffer_view.dim<%r : !hal.buffer_view> [0] : index
  %s = stream.tensor.sizeof tensor<?xi32>{%n} : index
  %t = stream.tensor.import consume %r message("result 0 of 'Repeat.function'") : !hal.buffer_view -> tensor<?xi32>{%n} in !stream.resource<external>{%s}
  %f = stream.resource.dealloca origin %t : !stream.resource<external>{%s} => !stream.timepoint
  return %n : index
}
