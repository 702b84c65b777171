// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s

// A host load waits for the work that produced its resource and for nothing
// else (not for the unrelated dispatch before it); it is a use, so the
// resource is freed after it.
// CHECK-LABEL: func.func @load_after_producer
// CHECK: %[[T:.+]], %[[TA:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK: %[[D0:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%{{.+}}, %{{.+}}, %[[T]])
// CHECK: %[[U:.+]], %{{.+}} = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK: stream.cmd.dispatch kernel("mul")
// CHECK: %[[R:.+]] = stream.timepoint.await %[[D0]] => %[[T]] : (!stream.resource<transient>{%{{.+}}})
// CHECK-NEXT: %[[V:.+]] = stream.resource.load %[[R]][%{{.+}}] : !stream.resource<transient>{%{{.+}}} -> i32
// CHECK-NEXT: stream.resource.dealloca origin await(%[[D0]]) %[[T]]
// CHECK: return %[[V]]
func.func @load_after_producer(%view: !hal.buffer_view, %n: index) -> i32 {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c8 = arith.constant 8 : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %v = stream.resource.load %0[%c8] : !stream.resource<*>{%s} -> i32
  return %v : i32
}

// -----

// A load of an import (ready when the function starts) waits for nothing.
// CHECK-LABEL: func.func @load_import
// CHECK-NOT: stream.timepoint.await
// CHECK: stream.resource.load
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @load_import(%view: !hal.buffer_view) -> f32 {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %c0 = arith.constant 0 : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %v = stream.resource.load %a[%c0] : !stream.resource<external>{%s} -> f32
  return %v : f32
}
