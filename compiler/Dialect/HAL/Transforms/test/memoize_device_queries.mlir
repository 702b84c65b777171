// RUN: ferry-opt %s --hal-memoize-device-queries | FileCheck %s

// Four identical queries on @a in two functions and one on @b become one
// query per device in the module initializer; the sites read globals.
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
// CHECK: hal.global @__query_0_ok : i1
// CHECK: hal.global @__query_0_value : i32
// CHECK: hal.global @__query_1_ok : i1
// CHECK: hal.global @__query_1_value : i32
// CHECK-NOT: hal.global
// CHECK-LABEL: func.func @f
// CHECK-NOT: hal.device.query
// CHECK: hal.global.load @__query_0_value : i32
// CHECK-NOT: hal.device.query
// CHECK: hal.global.load @__query_0_value : i32
// CHECK-NOT: hal.device.query
// CHECK: hal.global.load @__query_1_value : i32
// CHECK-NOT: hal.device.query
func.func @f() -> (i32, i32, i32) {
  %a0 = hal.device.get @a : !hal.device
  %ok0, %v0 = hal.device.query<%a0 : !hal.device> category("hal.device.link") key("b:transparent_access") : i1, i32
  %a1 = hal.device.get @a : !hal.device
  %ok1, %v1 = hal.device.query<%a1 : !hal.device> category("hal.device.link") key("b:transparent_access") : i1, i32
  %b = hal.device.get @b : !hal.device
  %ok2, %v2 = hal.device.query<%b : !hal.device> category("hal.device.link") key("a:transparent_access") : i1, i32
  return %v0, %v1, %v2 : i32, i32, i32
}
// CHECK-LABEL: func.func @g
// CHECK-NOT: hal.device.query
// CHECK: hal.global.load @__query_0_ok : i1
// CHECK: hal.global.load @__query_0_value : i32
// CHECK-NOT: hal.device.query
func.func @g() -> (i1, i32) {
  %a = hal.device.get @a : !hal.device
  %ok, %v = hal.device.query<%a : !hal.device> category("hal.device.link") key("b:transparent_access") : i1, i32
  return %ok, %v : i1, i32
}
// CHECK-LABEL: func.func @__init()
// CHECK: %[[A:.+]] = hal.device.get @a
// CHECK: %[[OK:.+]], %[[V:.+]] = hal.device.query<%[[A]] : !hal.device> category("hal.device.link") key("b:transparent_access") : i1, i32
// CHECK: hal.global.store %[[OK]], @__query_0_ok : i1
// CHECK: hal.global.store %[[V]], @__query_0_value : i32
// CHECK-NOT: hal.device.query
// CHECK: %[[B:.+]] = hal.device.get @b
// CHECK: hal.device.query<%[[B]] : !hal.device> category("hal.device.link") key("a:transparent_access")
// CHECK-NOT: hal.device.query
// CHECK: return
