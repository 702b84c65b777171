// A function without an affinity of its own runs its work on the default
// device (the first declared): a buffer exported to it, even from a caller
// placed on another device and through nested calls, may be used there, so
// the default device joins the allocation's query (before, only explicit
// affinities counted and the import at run time lacked SharingExport).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --convert-stream-to-hal | FileCheck %s

// The sum @on_b makes on @b goes to @unplaced, which runs on @a.
// CHECK-LABEL: func.func private @on_b
// CHECK: hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@b>, #hal.device.affinity<@a>]>)
// CHECK: call @unplaced

module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @unplaced(%x: tensor<4xi32>) -> tensor<4xi32> {
    %0 = arith.muli %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func private @on_b(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@b>} {
    %0 = arith.addi %x, %x : tensor<4xi32>
    %1 = call @unplaced(%0) : (tensor<4xi32>) -> tensor<4xi32>
    return %1 : tensor<4xi32>
  }
  func.func @main(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = call @on_b(%x) : (tensor<4xi32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
