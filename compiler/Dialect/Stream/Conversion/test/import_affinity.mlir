// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// tensor.empty, splat constants and linalg.fill keep their own affinity.
// CHECK-LABEL: func.func @own
// CHECK: stream.async.alloca : {{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK: stream.async.splat {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.fill {{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK: stream.async.dispatch.entry {{.+}} {stream.affinity = #hal.device.affinity<@b>}
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @own() -> tensor<4xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<4xi32>
  %s = arith.constant {stream.affinity = #hal.device.affinity<@b>} dense<7> : tensor<4xi32>
  %f = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = arith.addi %f, %s {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Without one of their own they take the function's.
// CHECK-LABEL: func.func @inherited
// CHECK: stream.async.alloca : {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.splat {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.fill {{.+}} {stream.affinity = #hal.device.affinity<@b>}
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @inherited() -> (tensor<4xi32>, tensor<4xi32>) attributes {stream.affinity = #hal.device.affinity<@b>} {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %s = arith.constant dense<7> : tensor<4xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %f, %s : tensor<4xi32>, tensor<4xi32>
}

// -----

// A call runs where the program placed it.
// CHECK-LABEL: func.func @call
// CHECK: stream.async.call @ext({{.+}} {stream.affinity = #hal.device.affinity<@b>}
hal.device.global @b = #hal.device.target<"local", {}>
func.func private @ext(tensor<4xi32>) -> tensor<4xi32>
func.func @call(%a: tensor<4xi32>) -> tensor<4xi32> {
  %r = call @ext(%a) {stream.affinity = #hal.device.affinity<@b>} : (tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// No affinity anywhere: none is invented.
// CHECK-LABEL: func.func @none
// CHECK-NOT: stream.affinity
func.func @none() -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  return %e : tensor<4xi32>
}

