// Every hal op the writer serializes, written directly at the hal level: the
// pipeline leaves it alone and the writer produces a module.
// RUN: ferry-compile %s -o %t.fvm
// RUN: head -c 8 %t.fvm | od -A n -c | FileCheck %s --check-prefix=MAGIC
// MAGIC: F   E   R   R   Y   V   M  \0

// Hal-level input passes through the pipeline unchanged.
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL-LABEL: func.func @add
// HAL:       hal.device.queue.alloca
// HAL-SAME:    signal(
// HAL:       hal.device.queue.dispatch
// HAL-SAME:    kernel("add") type(i32)
// HAL:       hal.device.queue.dealloca
// HAL:       hal.fence.join
// HAL:       return

hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func @add(%a: !hal.buffer_view, %b: !hal.buffer_view) -> !hal.buffer_view {
  %c4 = arith.constant 4 : index
  %mt = hal.memory_type<"HostVisible|DeviceLocal"> : i32
  %u = hal.buffer_usage<"Transfer|DispatchStorage"> : i32
  %d = hal.device.get @__device_0 : !hal.device
  %n = hal.buffer_view.dim<%a : !hal.buffer_view>[0] : index
  hal.buffer_view.assert<%a : !hal.buffer_view> message("input 0") shape([%n]) type(i32)
  hal.buffer_view.assert<%b : !hal.buffer_view> message("input 1") shape([%n]) type(i32)
  %ba = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer
  %bb = hal.buffer_view.buffer<%b : !hal.buffer_view> : !hal.buffer
  %len = hal.buffer.length<%ba : !hal.buffer> : index
  %f0 = hal.fence.create device(%d : !hal.device) : !hal.fence
  %out = hal.device.queue.alloca<%d : !hal.device> signal(%f0) type(%mt) usage(%u) : !hal.buffer{%len}
  %f1 = hal.fence.create device(%d : !hal.device) : !hal.fence
  hal.device.queue.dispatch<%d : !hal.device> wait(%f0) signal(%f1) kernel("add") type(i32) count(%n) bindings(%ba, %bb, %out)
  %size = arith.muli %n, %c4 : index
  %f2 = hal.fence.create device(%d : !hal.device) : !hal.fence
  %tmp = hal.device.queue.alloca<%d : !hal.device> wait(%f1) signal(%f2) type(%mt) usage(%u) : !hal.buffer{%size}
  %f3 = hal.fence.create device(%d : !hal.device) : !hal.fence
  hal.device.queue.dealloca<%d : !hal.device> wait(%f2) signal(%f3) buffer(%tmp : !hal.buffer)
  %done = hal.fence.join at([%f1, %f3]) -> !hal.fence
  hal.fence.await until([%done])
  %view = hal.buffer_view.create buffer(%out : !hal.buffer) shape([%n]) type(i32) : !hal.buffer_view
  return %view : !hal.buffer_view
}
