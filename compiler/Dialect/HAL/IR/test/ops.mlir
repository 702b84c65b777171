// RUN: ferry-opt %s --split-input-file | ferry-opt --split-input-file | FileCheck %s

// CHECK: hal.device.global @dev = #hal.device.target<"local", {}>
hal.device.global @dev = #hal.device.target<"local", {}>

// CHECK-LABEL: func.func @bits
func.func @bits() -> (i32, i32, i32) {
  // CHECK: hal.memory_type<"HostVisible|DeviceLocal"> : i32
  %0 = hal.memory_type<"DeviceLocal|HostVisible"> : i32
  // Combined spellings print instead of their parts.
  // CHECK: hal.buffer_usage<"Transfer|DispatchStorage|SharingExport"> : i32
  %1 = hal.buffer_usage<"TransferSource|TransferTarget|DispatchStorage|SharingExport"> : i32
  // CHECK: hal.buffer_usage<"None"> : i32
  %2 = hal.buffer_usage<"None"> : i32
  return %0, %1, %2 : i32, i32, i32
}

// CHECK-LABEL: func.func @views
func.func @views(%view: !hal.buffer_view, %c4: index) -> !hal.buffer_view {
  // CHECK: %[[D0:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view> [0] : index
  %d0 = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
  // CHECK: hal.buffer_view.assert<%{{.+}} : !hal.buffer_view> message("input 0") shape([%[[D0]], %{{.+}}]) type(f32)
  hal.buffer_view.assert<%view : !hal.buffer_view> message("input 0") shape([%d0, %c4]) type(f32)
  // CHECK: hal.buffer_view.buffer<%{{.+}} : !hal.buffer_view> : !hal.buffer
  %buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  // CHECK: hal.buffer.length<%{{.+}} : !hal.buffer> : index
  %length = hal.buffer.length<%buffer : !hal.buffer> : index
  // CHECK: hal.buffer_view.create buffer(%{{.+}} : !hal.buffer) shape([%[[D0]]]) type(i64) : !hal.buffer_view
  %new = hal.buffer_view.create buffer(%buffer : !hal.buffer) shape([%d0]) type(i64) : !hal.buffer_view
  return %new : !hal.buffer_view
}

// CHECK-LABEL: func.func @queue
func.func @queue(%size: index, %n: index, %a: !hal.buffer) {
  %mt = hal.memory_type<"DeviceLocal"> : i32
  %u = hal.buffer_usage<"DispatchStorage"> : i32
  // CHECK: %[[DEV:.+]] = hal.device.get @dev : !hal.device
  %device = hal.device.get @dev : !hal.device
  // CHECK: %[[F0:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) : !hal.fence
  %f0 = hal.fence.create device(%device : !hal.device) : !hal.fence
  %f1 = hal.fence.create device(%device : !hal.device) : !hal.fence
  %f2 = hal.fence.create device(%device : !hal.device) : !hal.fence
  // CHECK: %[[B:.+]] = hal.device.queue.alloca<%[[DEV]] : !hal.device> signal(%[[F0]]) type(%{{.+}}) usage(%{{.+}}) : !hal.buffer{%{{.+}}}
  %b = hal.device.queue.alloca<%device : !hal.device> signal(%f0) type(%mt) usage(%u) : !hal.buffer{%size}
  // CHECK: hal.device.queue.dispatch<%[[DEV]] : !hal.device> wait(%[[F0]]) signal(%{{.+}}) kernel("add") type(i32) count(%{{.+}}) bindings(%{{.+}}, %{{.+}}, %[[B]])
  hal.device.queue.dispatch<%device : !hal.device> wait(%f0) signal(%f1) kernel("add") type(i32) count(%n) bindings(%a, %a, %b)
  // CHECK: hal.device.queue.dealloca<%[[DEV]] : !hal.device> wait(%{{.+}}) signal(%{{.+}}) buffer(%[[B]] : !hal.buffer)
  hal.device.queue.dealloca<%device : !hal.device> wait(%f1) signal(%f2) buffer(%b : !hal.buffer)
  // CHECK: %[[J:.+]] = hal.fence.join at([%{{.+}}, %{{.+}}]) -> !hal.fence
  %j = hal.fence.join at([%f1, %f2]) -> !hal.fence
  // CHECK: hal.fence.await until([%[[J]]])
  hal.fence.await until([%j])
  return
}

// -----

// CHECK-LABEL: func.func @fill_copy_ownership
func.func @fill_copy_ownership(%d: !hal.device, %f0: !hal.fence, %f1: !hal.fence, %a: !hal.buffer, %b: !hal.buffer, %o: index, %n: index, %v: i16, %c: i1) -> (i1, i1) {
  // CHECK: hal.device.queue.fill<%{{.+}} : !hal.device> wait(%{{.+}}) signal(%{{.+}}) target(%{{.+}} : !hal.buffer) [%{{.+}}, %{{.+}}] pattern(%{{.+}} : i16)
  hal.device.queue.fill<%d : !hal.device> wait(%f0) signal(%f1) target(%a : !hal.buffer)[%o, %n] pattern(%v : i16)
  // CHECK: hal.device.queue.copy<%{{.+}} : !hal.device> signal(%{{.+}}) source(%{{.+}} : !hal.buffer) [%{{.+}}] target(%{{.+}} : !hal.buffer) [%{{.+}}] length(%{{.+}})
  hal.device.queue.copy<%d : !hal.device> signal(%f1) source(%a : !hal.buffer)[%o] target(%b : !hal.buffer)[%o] length(%n)
  // CHECK: hal.buffer.allocation.preserve<%{{.+}} : !hal.buffer>
  hal.buffer.allocation.preserve<%a : !hal.buffer>
  // CHECK: hal.buffer.allocation.discard<%{{.+}} : !hal.buffer> : i1
  %last = hal.buffer.allocation.discard<%a : !hal.buffer> : i1
  // CHECK: hal.buffer.allocation.is_terminal<%{{.+}} : !hal.buffer> : i1
  %only = hal.buffer.allocation.is_terminal<%a : !hal.buffer> : i1
  // CHECK: hal.device.queue.dealloca<%{{.+}} : !hal.device> signal(%{{.+}}) buffer(%{{.+}} : !hal.buffer) prefer_origin if(%{{.+}})
  hal.device.queue.dealloca<%d : !hal.device> signal(%f1) buffer(%a : !hal.buffer) prefer_origin if(%c)
  %mt = hal.memory_type<"DeviceLocal"> : i32
  // CHECK: hal.device.queue.alloca<%{{.+}} : !hal.device> signal(%{{.+}}) type(%{{.+}}) usage(%{{.+}}) indeterminate : !hal.buffer{%{{.+}}}
  %x = hal.device.queue.alloca<%d : !hal.device> signal(%f0) type(%mt) usage(%mt) indeterminate : !hal.buffer{%n}
  return %last, %only : i1, i1
}

// -----

hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>

// CHECK-LABEL: func.func @import_buffer
func.func @import_buffer(%a: !hal.buffer, %f: !hal.fence) -> (!hal.buffer, !hal.buffer) {
  // CHECK: %[[B:.+]] = hal.device.get @b : !hal.device
  %b = hal.device.get @b : !hal.device
  // CHECK: hal.device.import_buffer<%[[B]] : !hal.device> buffer(%{{.+}} : !hal.buffer) wait(%{{.+}}) : !hal.buffer
  %0 = hal.device.import_buffer<%b : !hal.device> buffer(%a : !hal.buffer) wait(%f) : !hal.buffer
  // CHECK: hal.device.import_buffer<%[[B]] : !hal.device> buffer(%{{.+}} : !hal.buffer) : !hal.buffer
  %1 = hal.device.import_buffer<%b : !hal.device> buffer(%a : !hal.buffer) : !hal.buffer
  return %0, %1 : !hal.buffer, !hal.buffer
}
