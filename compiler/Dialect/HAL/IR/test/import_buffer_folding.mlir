// RUN: ferry-opt %s --split-input-file --canonicalize | FileCheck %s

// An import into the device that allocated the buffer (or imported it
// already) folds to the buffer; an import into another device stays.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>

// CHECK-LABEL: func.func @same_device
func.func @same_device(%f: !hal.fence, %n: index) -> (!hal.buffer, !hal.buffer) {
  %a = hal.device.get @a : !hal.device
  %a2 = hal.device.get @a : !hal.device
  %b = hal.device.get @b : !hal.device
  %mt = hal.memory_type<"DeviceLocal"> : i32
  %u = hal.buffer_usage<"Transfer|DispatchStorage|SharingExport"> : i32
  // CHECK: %[[BUF:.+]] = hal.device.queue.alloca
  %buffer = hal.device.queue.alloca<%a : !hal.device> signal(%f) type(%mt) usage(%u) : !hal.buffer{%n}
  %0 = hal.device.import_buffer<%a2 : !hal.device> buffer(%buffer : !hal.buffer) wait(%f) : !hal.buffer
  // CHECK: %[[IMP:.+]] = hal.device.import_buffer<%{{.+}} : !hal.device> buffer(%[[BUF]] : !hal.buffer) wait(%{{.+}}) : !hal.buffer
  %1 = hal.device.import_buffer<%b : !hal.device> buffer(%0 : !hal.buffer) wait(%f) : !hal.buffer
  %2 = hal.device.import_buffer<%b : !hal.device> buffer(%1 : !hal.buffer) : !hal.buffer
  // CHECK: return %[[BUF]], %[[IMP]]
  return %0, %2 : !hal.buffer, !hal.buffer
}
