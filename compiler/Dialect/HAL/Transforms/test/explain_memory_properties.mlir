// RUN: ferry-opt %s --split-input-file --verify-diagnostics --hal-explain-memory-properties

hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @rules() -> (i32, i32, i32, i32) {
  // expected-remark @+1 {{memory properties by rule 'lifetime': no device affinity: bits of a constant allocation alone; "DeviceLocal" / "Transfer|DispatchStorage|SharingImmutable"}}
  %m0, %u0 = hal.allocator.resolve_memory_properties lifetime(constant) : i32, i32
  // expected-remark @+1 {{memory properties by rule 'transparent access': shared by @a, @b; every other device accesses @a's memory transparently, so it allocates host-visible memory they map persistently; allocated on @a}}
  %m1, %u1 = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
  return %m0, %u0, %m1, %u1 : i32, i32, i32, i32
}

// -----

module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @runtime() -> (i32, i32) {
    // expected-remark @+1 {{memory properties by rule 'run-time query': shared by @a, @b; the topology leaves their links to run time, so device queries decide the bits and the allocating device; at least "DeviceLocal" / "Transfer|DispatchStorage"}}
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    return %m, %u : i32, i32
  }
}

// -----

// No way to share (once an error): @b allocates as the lead, @a uses the
// buffer through transfers.
// RUN: ferry-opt %s --split-input-file --hal-explain-memory-properties=lead-allocation-device=b 2>&1 >/dev/null | FileCheck %s --check-prefix=LEAD
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = false, unified_memory = false, import_handle_types = [], export_handle_types = []}),
    (@b -> @a = {transparent_access = false, unified_memory = false, import_handle_types = [], export_handle_types = []})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @transfer() -> (i32, i32) {
    // LEAD: rule 'transfer': {{.*}}(the link @a -> @b has no transparent_access{{.*}}): @b allocates (--lead-allocation-device) and the others use the buffer through transfers
    // expected-remark @+1 {{memory properties by rule 'transfer': shared by @a, @b, but no device can use memory all the others allocate (the link @b -> @a has no transparent_access, no unified_memory and no export/import handle type in common): @a allocates and the others use the buffer through transfers (a copy in before each use, written back after a write; SharingExport in case the running devices can export it); allocated on @a; "DeviceLocal" / "Transfer|DispatchStorage|SharingExport"}}
    %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
    return %m, %u : i32, i32
  }
}
