// RUN: ferry-opt %s --hal-resolve-topology-queries=lead-allocation-device=b | FileCheck %s
// RUN: ferry-opt %s --hal-resolve-topology-queries | FileCheck %s --check-prefix=DEFAULT

// The lead device must be a hal.device.global of the module; both passes
// that take the option say so in the same words (@lead is a function).
// RUN: not ferry-opt %s --hal-resolve-topology-queries=lead-allocation-device=c 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ferry-opt %s --hal-explain-memory-properties=lead-allocation-device=c 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: lead allocation device 'c' is not a hal.device.global of the module
// UNKNOWN-NOT: remark
// RUN: not ferry-opt %s --hal-resolve-topology-queries=lead-allocation-device=lead 2>&1 | FileCheck %s --check-prefix=NOT-DEVICE
// NOT-DEVICE: error: lead allocation device 'lead' is not a hal.device.global of the module

// Two local devices: the topology would pick @a (first); the lead device
// flag makes @b allocate, with the same transparent-access bits.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
// CHECK-LABEL: func.func @lead
// CHECK-DAG: %[[B:.+]] = hal.device.get @b
// CHECK-DAG: hal.buffer_usage<"Transfer|DispatchStorage|Mapping|MappingPersistent">
// CHECK: return %{{.+}}, %{{.+}}, %[[B]]
// DEFAULT: %[[A:.+]] = hal.device.get @a
// DEFAULT: return %{{.+}}, %{{.+}}, %[[A]]
func.func @lead(%da: !hal.device, %db: !hal.device) -> (i32, i32, !hal.device) {
  %m, %u = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient) : i32, i32
  %dev = hal.allocator.select from([%da, %db]) type(%m) usage(%u) : !hal.device
  return %m, %u, %dev : i32, i32, !hal.device
}
