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
