// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation | FileCheck %s

// A splat's alloca and fill stay on the splat's device.
// CHECK-LABEL: func.func @splat
// CHECK: %[[R:.+]], %[[RA:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>{%{{.+}}} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.cmd.fill %{{.+}}, %[[R]] {{.+}} {stream.affinity = #hal.device.affinity<@b>}
func.func @splat(%s: index) {
  %c7 = arith.constant 7 : i32
  %0 = stream.async.splat %c7 : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

// A tensor.empty alloca keeps its device.
// CHECK-LABEL: func.func @alloca
// CHECK: stream.resource.alloca uninitialized : !stream.resource<transient>{%{{.+}}} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
func.func @alloca(%s: index) {
  %0 = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

// Clones and transfers: the new allocation and the copy into it are on the
// cloning (transferring) op's device.
// CHECK-LABEL: func.func @copies
// CHECK: %[[C:.+]], %{{.+}} = stream.resource.alloca {{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK: stream.cmd.copy {{.+}}, %[[C]]{{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.cmd.copy %[[C]]{{.+}}, %[[T]]{{.+}} {stream.affinity = #hal.device.affinity<@b>}
func.func @copies(%s: index) {
  %c7 = arith.constant 7 : i32
  %0 = stream.async.splat %c7 : i32 -> !stream.resource<*>{%s}
  %1 = stream.async.clone %0 : !stream.resource<*>{%s} -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %2 = stream.async.transfer %1 : !stream.resource<*>{%s} -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

// In-place fills and updates run on their own device.
// CHECK-LABEL: func.func @in_place
// CHECK: stream.cmd.fill {{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK: stream.cmd.copy {{.+}} {stream.affinity = #hal.device.affinity<@b>}
func.func @in_place(%s: index, %off: index) {
  %c0 = arith.constant 0 : i32
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %u = stream.async.alloca : !stream.resource<*>{%s}
  %f = stream.async.fill %c0, %e : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %r = stream.async.update %u, %f[%off] : !stream.resource<*>{%s} -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A call runs on its device.
// CHECK-LABEL: func.func @call
// CHECK: stream.cmd.call @write({{.+}} {stream.affinity = #hal.device.affinity<@b>}
func.func @call(%s: index) {
  %a = stream.async.alloca : !stream.resource<*>{%s}
  %t = stream.async.alloca : !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%t{%s}) {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

// Ops without an affinity stay without one (the default device).
// CHECK-LABEL: func.func @none
// CHECK-NOT: stream.affinity
func.func @none(%s: index) {
  %c7 = arith.constant 7 : i32
  %0 = stream.async.splat %c7 : i32 -> !stream.resource<*>{%s}
  %1 = stream.async.clone %0 : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  return
}
