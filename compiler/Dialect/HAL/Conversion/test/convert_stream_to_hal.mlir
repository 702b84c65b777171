// Nothing of the stream dialect is left anywhere (--implicit-check-not
// looks before, between and after all matches).
// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s --implicit-check-not=stream.

// With no device declared, one local device is added and all work runs on it.
// CHECK: hal.device.global @__device_0 = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[VIEW:.+]]: !hal.buffer_view
// CHECK: %[[DEV:.+]] = hal.device.get @__device_0 : !hal.device
// CHECK: %[[D0:.+]] = hal.buffer_view.dim
// Sizes are element size times every dimension.
// CHECK: %[[SIZE:.+]] = arith.muli %{{.+}}, %[[D0]] : index
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: hal.buffer_view.assert<%[[VIEW]] : !hal.buffer_view> message("input 0") shape([%[[D0]], %[[C3]]]) type(f32)
// CHECK: %[[IN:.+]] = hal.buffer_view.buffer<%[[VIEW]] : !hal.buffer_view> : !hal.buffer
// Without affinities the bits follow from the lifetime alone.
// CHECK: %[[MT:.+]], %[[U:.+]] = hal.allocator.resolve_memory_properties lifetime(transient) : i32, i32
// CHECK: %[[F0:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) : !hal.fence
// CHECK: %[[T:.+]] = hal.device.queue.alloca<%[[DEV]] : !hal.device> signal(%[[F0]]) type(%[[MT]]) usage(%[[U]]) : !hal.buffer{%[[SIZE]]}
// CHECK: hal.device.queue.dispatch<%[[DEV]] : !hal.device> wait(%[[F0]]) signal(%[[F1:.+]]) kernel("mul") type(f32) count(%{{.+}}) bindings(%[[IN]], %[[IN]], %[[T]])
// CHECK: hal.allocator.resolve_memory_properties lifetime(external) : i32, i32
// CHECK: %[[OUT:.+]] = hal.device.queue.alloca
// CHECK: %[[J:.+]] = hal.fence.join at([%{{.+}}, %[[F1]]]) -> !hal.fence
// CHECK: hal.device.queue.dispatch<%[[DEV]] : !hal.device> wait(%[[J]]) signal(%[[F2:.+]]) kernel("add")
// CHECK: hal.device.queue.dealloca<%[[DEV]] : !hal.device> wait(%[[F2]]) signal(%[[F3:.+]]) buffer(%[[T]] : !hal.buffer)
// CHECK: hal.fence.await until([%[[F2]]])
// CHECK: %[[RES:.+]] = hal.buffer_view.create buffer(%[[OUT]] : !hal.buffer) shape([%[[D0]], %{{.+}}]) type(f32) : !hal.buffer_view
// CHECK: hal.fence.await until([%[[F3]]])
// CHECK: return %[[RES]]
func.func @main(%view: !hal.buffer_view) -> !hal.buffer_view {
  %d0 = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
  %n = arith.constant 12 : index
  %s = stream.tensor.sizeof tensor<?x3xf32>{%d0} : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<?x3xf32>{%d0} in !stream.resource<external>{%s}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d = stream.cmd.dispatch kernel("mul") type(f32) count(%n) await(%ta) (%a, %a, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %o, %oa = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%oa, %d) => !stream.timepoint
  %d2 = stream.cmd.dispatch kernel("add") type(f32) count(%n) await(%j) (%t, %a, %o) : (!stream.resource<transient>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %f = stream.resource.dealloca await(%d2) %t : !stream.resource<transient>{%s} => !stream.timepoint
  %r = stream.timepoint.await %d2 => %o : (!stream.resource<external>{%s})
  %out = stream.tensor.export %r : tensor<?x3xf32>{%d0} in !stream.resource<external>{%s} -> !hal.buffer_view
  stream.timepoint.await %f
  return %out : !hal.buffer_view
}

// -----

// A declared device is used instead of a new one (which would be declared
// first, so the not-checks bracket the declared one).
// CHECK-NOT: @__device_0
// CHECK: hal.device.global @gpu = #hal.device.target<"local", {}>
// CHECK-NOT: @__device_0
// CHECK: hal.device.get @gpu
// CHECK-NOT: @__device_0
hal.device.global @gpu = #hal.device.target<"local", {}>
func.func @declared(%view: !hal.buffer_view) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.resource.dealloca await(%ta) %t : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %f
  return %view : !hal.buffer_view
}


// -----

// Each op runs on its affinity's device; the allocation gets one query for
// every device that uses it and a run-time select between them.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @affinities(
// CHECK-DAG: %[[B:.+]] = hal.device.get @b : !hal.device
// CHECK-DAG: %[[A:.+]] = hal.device.get @a : !hal.device
// CHECK: %[[MT:.+]], %[[U:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
// CHECK: %[[SEL:.+]] = hal.allocator.select from([%[[A]], %[[B]]]) type(%[[MT]]) usage(%[[U]]) : !hal.device
// CHECK: %[[T:.+]] = hal.device.queue.alloca<%[[SEL]] : !hal.device> signal(%{{.+}}) type(%[[MT]]) usage(%[[U]])
// CHECK: hal.device.queue.dispatch<%[[A]] : !hal.device> {{.*}} kernel("mul")
// CHECK: hal.device.queue.dispatch<%[[B]] : !hal.device> {{.*}} kernel("add")
// Memory goes back to the device that allocated it.
// CHECK: hal.device.queue.dealloca<%[[SEL]] : !hal.device> {{.*}} buffer(%[[T]] : !hal.buffer)
func.func @affinities(%view: !hal.buffer_view) {
  %n = arith.constant 4 : index
  %s = arith.constant 16 : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  %d = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%ta) (%a, %a, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  %t2, %t2a = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  %j = stream.timepoint.join max(%t2a, %d) => !stream.timepoint
  %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%j) (%t, %a, %t2) : (!stream.resource<transient>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
  %f = stream.resource.dealloca await(%d2) %t : !stream.resource<transient>{%s} => !stream.timepoint
  %f2 = stream.resource.dealloca await(%d2) %t2 : !stream.resource<transient>{%s} => !stream.timepoint
  %all = stream.timepoint.join max(%f, %f2) => !stream.timepoint
  stream.timepoint.await %all
  return
}

// -----

// An argument the host handed over (a consumed import of a block argument)
// is claimed on its device where it enters: the program's own from then on.
// A consumed call result needs no claim: the callee hands over the only
// ownership.
// CHECK-LABEL: func.func @consumed
// CHECK: %[[D:.+]] = hal.device.get @__device_0
// CHECK: %[[B:.+]] = hal.buffer_view.buffer<%arg0 : !hal.buffer_view>
// CHECK: %[[OWN:.+]] = hal.buffer.allocation.claim<%[[D]] : !hal.device> buffer(%[[B]] : !hal.buffer) : !hal.buffer
// CHECK: hal.device.queue.fill<%{{.+}}> {{.*}}target(%[[OWN]] : !hal.buffer)
// CHECK: call @produce
// CHECK-NOT: hal.buffer.allocation.claim
// CHECK: hal.buffer_view.create buffer(%[[OWN]] : !hal.buffer)
// CHECK: return
hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func private @produce() -> !hal.buffer_view
func.func @consumed(%view: !hal.buffer_view) -> !hal.buffer_view {
  %c7 = arith.constant 7 : i32
  %s = arith.constant 16 : index
  %a = stream.tensor.import consume %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %f = stream.cmd.fill %c7, %a : i32 -> !stream.resource<external>{%s} => !stream.timepoint
  stream.timepoint.await %f
  %r = call @produce() : () -> !hal.buffer_view
  %b = stream.tensor.import consume %r message("result 0 of 'produce'") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %v = stream.tensor.export %a : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// An i1 element is a byte of 0 or 1: its fill pattern is the i1 widened to
// an i8 (a constant one folds later); f16 and bf16 fill with their bits.
// CHECK-LABEL: func.func @fill_new_types
// CHECK: %[[WIDE:.+]] = arith.extui %arg1 : i1 to i8
// CHECK: hal.device.queue.fill{{.*}} pattern(%[[WIDE]] : i8)
// CHECK: %[[HALF:.+]] = arith.constant 15360 : i16
// CHECK: hal.device.queue.fill{{.*}} pattern(%[[HALF]] : i16)
// CHECK: %[[BF:.+]] = arith.bitcast %arg2 : bf16 to i16
// CHECK: hal.device.queue.fill{{.*}} pattern(%[[BF]] : i16)
hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func @fill_new_types(%view: !hal.buffer_view, %flag: i1, %b: bf16) -> !hal.buffer_view {
  %one = arith.constant 1.0 : f16
  %s = arith.constant 4 : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi8> in !stream.resource<external>{%s}
  %f = stream.cmd.fill %flag, %a : i1 -> !stream.resource<external>{%s} => !stream.timepoint
  %g = stream.cmd.fill %one, %a await(%f) : f16 -> !stream.resource<external>{%s} => !stream.timepoint
  %h = stream.cmd.fill %b, %a await(%g) : bf16 -> !stream.resource<external>{%s} => !stream.timepoint
  stream.timepoint.await %h
  %v = stream.tensor.export %a : tensor<4xi8> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}
