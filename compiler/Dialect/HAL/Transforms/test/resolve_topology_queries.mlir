// RUN: ferry-opt %s --split-input-file --verify-diagnostics --hal-resolve-topology-queries | FileCheck %s

// The bits of each lifetime, with no affinity at all.
hal.device.global @a = #hal.device.target<"local", {}>
// Staging memory is coherent (no flushes) and dispatches may use it.
// CHECK-LABEL: func.func @lifetimes
// CHECK-NEXT: hal.memory_type<"HostVisible|DeviceLocal">
// CHECK-NEXT: hal.buffer_usage<"Transfer|DispatchStorage|Mapping">
// CHECK-NEXT: hal.memory_type<"HostVisible|HostCoherent|DeviceVisible|HostLocal">
// CHECK-NEXT: hal.buffer_usage<"Transfer|DispatchStorage|Mapping">
// CHECK-NEXT: hal.memory_type<"DeviceLocal">
// CHECK-NEXT: hal.buffer_usage<"Transfer|DispatchStorage">
// CHECK-NEXT: hal.memory_type<"DeviceLocal">
// CHECK-NEXT: hal.buffer_usage<"Transfer|DispatchStorage">
// CHECK-NEXT: hal.memory_type<"DeviceLocal">
// CHECK-NEXT: hal.buffer_usage<"Transfer|DispatchStorage|SharingImmutable">
// CHECK-NEXT: return
func.func @lifetimes() -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %m0, %u0 = hal.allocator.resolve_memory_properties lifetime(external) : i32, i32
  %m1, %u1 = hal.allocator.resolve_memory_properties lifetime(staging) : i32, i32
  %m2, %u2 = hal.allocator.resolve_memory_properties lifetime(transient) : i32, i32
  %m3, %u3 = hal.allocator.resolve_memory_properties lifetime(variable) : i32, i32
  %m4, %u4 = hal.allocator.resolve_memory_properties lifetime(constant) : i32, i32
  return %m0, %u0, %m1, %u1, %m2, %u2, %m3, %u3, %m4, %u4 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// One device: the lifetime's bits, no sharing bits.
hal.device.global @a = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @one_device
// CHECK-DAG: %[[M:.+]] = hal.memory_type<"DeviceLocal">
// CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage">
// CHECK: return %[[M]], %[[U]]
func.func @one_device() -> (i32, i32) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@a>) lifetime(transient) : i32, i32
  return %m, %u : i32, i32
}

// -----

// Several affinities naming the same device symbol (different queues): one
// device, no sharing bits.
hal.device.global @a = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @same_symbol_twice
// CHECK-DAG: %[[M:.+]] = hal.memory_type<"DeviceLocal">
// CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage">
// CHECK: return %[[M]], %[[U]]
func.func @same_symbol_twice() -> (i32, i32) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a, queue_mask = 1>, #hal.device.affinity<@a, queue_mask = 2>]>) lifetime(transient) : i32, i32
  return %m, %u : i32, i32
}

// -----

// Two devices of one driver are two devices: discrete GPUs that only share
// through an exported handle get the sharing bits.
hal.device.global @gpu0 = #hal.device.target<"gpu", {host_visible_memory = false, unified_memory = false, host_memory_access = false, export_handle_types = ["opaque_fd"], import_handle_types = ["opaque_fd"]}>
hal.device.global @gpu1 = #hal.device.target<"gpu", {host_visible_memory = false, unified_memory = false, host_memory_access = false, export_handle_types = ["opaque_fd"], import_handle_types = ["opaque_fd"]}>
// CHECK-LABEL: func.func @same_driver
// CHECK-DAG: %[[M:.+]] = hal.memory_type<"DeviceLocal">
// CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage|SharingExport">
// CHECK-DAG: %[[G0:.+]] = hal.device.get @gpu0
// CHECK: return %[[M]], %[[U]], %[[G0]]
func.func @same_driver(%d0: !hal.device, %d1: !hal.device) -> (i32, i32, !hal.device) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@gpu0>, #hal.device.affinity<@gpu1>]>) lifetime(transient) : i32, i32
  %dev = hal.allocator.select from([%d0, %d1]) type(%m) usage(%u) : !hal.device
  return %m, %u, %dev : i32, i32, !hal.device
}

// -----

// Transparent access in one direction only: @a reaches @b's memory, so @b
// allocates host-visible memory @a maps persistently.
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = true}), (@b -> @a = {transparent_access = false})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @one_direction
  // CHECK-NOT: hal.allocator.select
  // CHECK-DAG: %[[M:.+]] = hal.memory_type<"HostVisible|DeviceLocal">
  // CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage|Mapping|MappingPersistent">
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b
  // CHECK-NOT: hal.allocator.select
  // CHECK: return %[[M]], %[[U]], %[[B]]
  func.func @one_direction(%da: !hal.device, %db: !hal.device) -> (i32, i32, !hal.device) {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    %dev = hal.allocator.select from([%da, %db]) type(%m) usage(%u) : !hal.device
    return %m, %u, %dev : i32, i32, !hal.device
  }
}

// -----

// Three devices, one link left to the targets, which do not know: the
// answer comes from device queries at run time, and so does the allocating
// device.
module attributes {stream.topology = #hal.device.topology<links = [
    (@b -> @a = {transparent_access = true}),
    (@a -> @b = {transparent_access = false}), (@a -> @c = {transparent_access = false}),
    (@b -> @c = {transparent_access = false}), (@c -> @b = {transparent_access = false})]>} {
  hal.device.global @a = #hal.device.target<"gpu", {}>
  hal.device.global @b = #hal.device.target<"gpu", {}>
  hal.device.global @c = #hal.device.target<"gpu", {}>
  // CHECK-LABEL: func.func @missing_link
  // CHECK-NOT: resolve_memory_properties
  // CHECK: %[[C:.+]] = hal.device.get @c
  // CHECK: %{{.+}}, %[[T:.+]] = hal.device.query<%[[C]] : !hal.device> category("hal.device.link") key("a:transparent_access") : i1, i32
  // CHECK: arith.muli
  // CHECK: arith.ori
  // CHECK: hal.allocator.select
  func.func @missing_link(%da: !hal.device, %db: !hal.device, %dc: !hal.device) -> (i32, i32, !hal.device) {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>, #hal.device.affinity<@c>]>) lifetime(transient) : i32, i32
    %dev = hal.allocator.select from([%da, %db, %dc]) type(%m) usage(%u) : !hal.device
    return %m, %u, %dev : i32, i32, !hal.device
  }
}

// -----

// Unified memory only: host-visible and host-coherent memory, mapped
// persistently.
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {unified_memory = true}), (@b -> @a = {unified_memory = true})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @unified_only
  // CHECK-DAG: %[[M:.+]] = hal.memory_type<"HostVisible|HostCoherent|DeviceLocal">
  // CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage|Mapping|MappingPersistent">
  // CHECK: return %[[M]], %[[U]]
  func.func @unified_only() -> (i32, i32) {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    return %m, %u : i32, i32
  }
}

// -----

// An export/import path: @a imports @b's buffers, so @b allocates and
// exports them.
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {import_handle_types = ["opaque_fd"], export_handle_types = ["opaque_fd", "host_allocation"]}),
    (@b -> @a = {})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @export_import
  // CHECK-DAG: %[[M:.+]] = hal.memory_type<"DeviceLocal">
  // CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage|SharingExport">
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b
  // CHECK: return %[[M]], %[[U]], %[[B]]
  func.func @export_import(%da: !hal.device, %db: !hal.device) -> (i32, i32, !hal.device) {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    %dev = hal.allocator.select from([%da, %db]) type(%m) usage(%u) : !hal.device
    return %m, %u, %dev : i32, i32, !hal.device
  }
}

// -----

// A user link overrides the default for that link only: by default two
// local devices reach each other and @a (first) allocates; with @b -> @a
// declared opaque, @b allocates (the default @a -> @b still applies).
module attributes {stream.topology = #hal.device.topology<links = [(@b -> @a = {})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @user_overrides_one_link
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b
  // CHECK-DAG: hal.buffer_usage<"Transfer|DispatchStorage|Mapping|MappingPersistent">
  // CHECK: return %{{.+}}, %{{.+}}, %[[B]]
  func.func @user_overrides_one_link(%da: !hal.device, %db: !hal.device) -> (i32, i32, !hal.device) {
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    %dev = hal.allocator.select from([%da, %db]) type(%m) usage(%u) : !hal.device
    return %m, %u, %dev : i32, i32, !hal.device
  }
}

// -----

// The default topology from target properties: @d's memory is not
// host-visible, so the host-side device @h cannot reach it, but @d reaches
// @h's: @h allocates, whatever the order of the affinities.
hal.device.global @d = #hal.device.target<"local", {host_visible_memory = false}>
hal.device.global @h = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @default_topology
// CHECK-DAG: %[[H:.+]] = hal.device.get @h
// CHECK-DAG: hal.memory_type<"HostVisible|DeviceLocal">
// CHECK: return %{{.+}}, %{{.+}}, %[[H]]
func.func @default_topology(%dd: !hal.device, %dh: !hal.device) -> (i32, i32, !hal.device) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@d>, #hal.device.affinity<@h>]>) lifetime(transient) : i32, i32
  %dev = hal.allocator.select from([%dd, %dh]) type(%m) usage(%u) : !hal.device
  return %m, %u, %dev : i32, i32, !hal.device
}

// -----

// No path at all between two devices: not an error (it was one). The first
// device allocates with its lifetime's bits plus SharingExport, and the
// other uses the buffer through hal.device.import_buffer, a transfer at run
// time (rule 'transfer').
hal.device.global @x = #hal.device.target<"gpu", {host_visible_memory = false, unified_memory = false, host_memory_access = false, export_handle_types = [], import_handle_types = []}>
hal.device.global @y = #hal.device.target<"gpu", {host_visible_memory = false, unified_memory = false, host_memory_access = false, export_handle_types = [], import_handle_types = []}>
// CHECK-LABEL: func.func @no_sharing_transfers
// CHECK-DAG: %[[X:.+]] = hal.device.get @x
// CHECK-DAG: hal.memory_type<"DeviceLocal">
// CHECK-DAG: hal.buffer_usage<"Transfer|DispatchStorage|SharingExport">
// CHECK-NOT: hal.allocator.select
// CHECK: return %{{.+}}, %{{.+}}, %[[X]]
func.func @no_sharing_transfers(%dx: !hal.device, %dy: !hal.device) -> (i32, i32, !hal.device) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@x>, #hal.device.affinity<@y>]>) lifetime(transient) : i32, i32
  %dev = hal.allocator.select from([%dx, %dy]) type(%m) usage(%u) : !hal.device
  return %m, %u, %dev : i32, i32, !hal.device
}

// -----

// Imports left by convert-stream-to-hal once the allocating device is known
// (@a, the one both others import from): the one into @c, which reaches @a's
// memory, is the buffer itself; the one into @b stays, and the allocation
// gets SharingExport (the import adds SharingImport).
module attributes {stream.topology = #hal.device.topology<links = [
    (@b -> @a = {import_handle_types = ["opaque_fd"], export_handle_types = ["opaque_fd"]}),
    (@a -> @b = {import_handle_types = ["opaque_fd"], export_handle_types = ["opaque_fd"]}),
    (@c -> @a = {transparent_access = true, import_handle_types = ["opaque_fd"], export_handle_types = ["opaque_fd"]}),
    (@a -> @c = {}),
    (@c -> @b = {}),
    (@b -> @c = {})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  hal.device.global @c = #hal.device.target<"local", {}>
  // CHECK-LABEL: func.func @imports
  // CHECK-DAG: %[[U:.+]] = hal.buffer_usage<"Transfer|DispatchStorage|SharingExport">
  // CHECK-DAG: %[[B:.+]] = hal.device.get @b
  // CHECK: %[[A:.+]] = hal.device.get @a
  // CHECK: %[[BUF:.+]] = hal.device.queue.alloca<%[[A]] : !hal.device> signal(%{{.+}}) type(%{{.+}}) usage(%[[U]])
  // CHECK-NOT: hal.device.import_buffer
  // CHECK: %[[IMP:.+]] = hal.device.import_buffer<%[[B]] : !hal.device> buffer(%[[BUF]] : !hal.buffer) wait(%{{.+}})
  // CHECK-NOT: hal.device.import_buffer
  // CHECK: return %[[IMP]], %[[BUF]]
  func.func @imports(%n: index) -> (!hal.buffer, !hal.buffer) {
    %a = hal.device.get @a : !hal.device
    %b = hal.device.get @b : !hal.device
    %c = hal.device.get @c : !hal.device
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>, #hal.device.affinity<@c>]>) lifetime(transient) : i32, i32
    %dev = hal.allocator.select from([%a, %b, %c]) type(%m) usage(%u) : !hal.device
    %f = hal.fence.create device(%dev : !hal.device) : !hal.fence
    %buffer = hal.device.queue.alloca<%dev : !hal.device> signal(%f) type(%m) usage(%u) : !hal.buffer{%n}
    %on_b = hal.device.import_buffer<%b : !hal.device> buffer(%buffer : !hal.buffer) wait(%f) : !hal.buffer
    %on_c = hal.device.import_buffer<%c : !hal.device> buffer(%buffer : !hal.buffer) wait(%f) : !hal.buffer
    return %on_b, %on_c : !hal.buffer, !hal.buffer
  }
}

// -----

// A property the user's topology leaves out is unknown, not false: it is
// asked of the devices at run time (here unified memory), instead of
// refusing the program as if the devices could not share.
// CHECK-LABEL: func.func @omitted_properties
// CHECK-DAG: hal.device.query<%{{.+}} : !hal.device> category("hal.device.link") key("a:unified_memory")
// CHECK-DAG: hal.device.query<%{{.+}} : !hal.device> category("hal.device.link") key("b:unified_memory")
// CHECK-NOT: key("{{[ab]}}:transparent_access")
// CHECK: return
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = false}),
    (@b -> @a = {transparent_access = false})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @omitted_properties() -> (i32, i32) {
    %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties
        for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>)
        lifetime(transient) : i32, i32
    return %memory_types, %buffer_usage : i32, i32
  }
}
