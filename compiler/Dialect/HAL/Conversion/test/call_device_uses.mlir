// A buffer exported to a call of a function of the module, or returned to a
// caller, may be used on every device that function (and what it calls) or
// that caller uses: those devices join the allocation's query, so the bits
// allow the cross-device use (tests/e2e/multi_device/call_across_devices.mlir
// runs it).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --convert-stream-to-hal | FileCheck %s
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --convert-stream-to-hal=external-mapping=always | FileCheck %s --check-prefix=ALWAYS
// RUN: ferry-compile %s --compile-to=stream-cmd | not ferry-opt --convert-stream-to-hal=external-mapping=sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: unknown external-mapping policy 'sometimes' (expected 'where-read' or 'always')

// The square @on_b returns goes back to @main, on @a.
// CHECK-LABEL: func.func private @on_b
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@b>, #hal.device.affinity<@a>]>) lifetime(external)
// The sum @main hands to @on_b is used on @b. Neither the host nor external
// code reads it, so it needs no host mapping (lifetime transient) unless
// every external buffer is to be mappable.
// CHECK-LABEL: func.func @main
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(transient)
// CHECK: call @on_b
// ALWAYS-LABEL: func.func @main
// ALWAYS: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>) lifetime(external)
// ALWAYS: call @on_b

module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @on_b(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@b>} {
    %0 = arith.muli %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = call @on_b(%0) : (tensor<4xi32>) -> tensor<4xi32>
    %2 = arith.addi %1, %x : tensor<4xi32>
    return %2 : tensor<4xi32>
  }
}
