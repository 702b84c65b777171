// RUN: ferry-opt %s --convert-stream-to-hal | FileCheck %s

// A constant becomes the module's read-only buffer on its device, bound as
// it is: no allocation and no copy for it.
// CHECK-LABEL: func.func @read
// CHECK: %[[DEV:.+]] = hal.device.get @__device_0
// CHECK: %[[C:.+]] = hal.device.constant<%[[DEV]] : !hal.device> dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: %[[OUT:.+]] = hal.device.queue.alloca
// CHECK: hal.device.queue.dispatch<%[[DEV]] : !hal.device> {{.*}} bindings(%[[C]], %[[C]], %[[OUT]])
// CHECK-NOT: hal.device.queue.alloca
// CHECK-NOT: hal.device.queue.copy
hal.device.global @__device_0 = #hal.device.target<"local", {}>
func.func @read(%n: index) {
  %s = arith.constant 16 : index
  %c = stream.resource.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<constant>{%s}
  %out, %ready = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ready) (%c, %c, %out) : (!stream.resource<constant>{%s}, !stream.resource<constant>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %d = stream.resource.dealloca await(%t) %out : !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %d
  return
}
