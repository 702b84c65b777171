// RUN: ferry-opt %s --split-input-file | ferry-opt --split-input-file | FileCheck %s

// Parse/print round trips of the device attributes and allocation ops.
// CHECK: module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {export_handle_types = ["opaque_fd"], import_handle_types = #hal.runtime, properties = {bandwidth = 64 : i64}, transparent_access = true, unified_memory = false}), (@b -> @a = {transparent_access = #hal.runtime})]>}
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = true, unified_memory = false,
                 export_handle_types = ["opaque_fd"], import_handle_types = #hal.runtime,
                 properties = {bandwidth = 64}}),
    (@b -> @a = {transparent_access = #hal.runtime})]>} {
  // CHECK: hal.device.global @a = #hal.device.target<"local", {host_visible_memory = true, import_handle_types = ["host_allocation"]}>
  hal.device.global @a = #hal.device.target<"local", {host_visible_memory = true, import_handle_types = ["host_allocation"]}>
  // CHECK: hal.device.global @b = #hal.device.target<"gpu", {unified_memory = #hal.runtime}>
  hal.device.global @b = #hal.device.target<"gpu", {unified_memory = #hal.runtime}>
  // CHECK: hal.global @g : i32
  hal.global @g : i32

  // CHECK-LABEL: func.func @ops
  func.func @ops(%da: !hal.device, %db: !hal.device) -> (i32, i32, i32, i32, !hal.device, i1, i32, i32) {
    // CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b, queue_mask = 3>]>) lifetime(transient) : i32, i32
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b, queue_mask = 3>]>) lifetime(transient) : i32, i32
    // CHECK: hal.allocator.resolve_memory_properties for(#hal.device.affinity<@a>) lifetime(external) : i32, i32
    %m1, %u1 = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@a>) lifetime(external) : i32, i32
    // CHECK: hal.allocator.select from([%{{.+}}, %{{.+}}]) type(%{{.+}}) usage(%{{.+}}) : !hal.device
    %dev = hal.allocator.select from([%da, %db]) type(%m) usage(%u) : !hal.device
    // CHECK: hal.device.query<%{{.+}} : !hal.device> category("hal.device.link") key("b:transparent_access") default(1) : i1, i32
    %ok, %v = hal.device.query<%da : !hal.device> category("hal.device.link") key("b:transparent_access") default(1) : i1, i32
    // CHECK: hal.global.load @g : i32
    %g = hal.global.load @g : i32
    return %m, %u, %m1, %u1, %dev, %ok, %v, %g : i32, i32, i32, i32, !hal.device, i1, i32, i32
  }
}
