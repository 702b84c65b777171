// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation | FileCheck %s

// A value copied whole into a resource nobody uses from the value's making
// on is made in that resource: the dispatch writes the target (which it
// also reads; elementwise, that is fine), the chain of in-place writes after
// it continues there, and the update copies nothing.
// CHECK-LABEL: func.func @dispatch_into_target
// CHECK: %[[X:.+]] = stream.tensor.import %arg0
// CHECK: %[[T:.+]] = stream.tensor.import %arg1
// CHECK-NOT: stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[T]], %[[X]], %[[T]])
// CHECK: %[[D2:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[D]]) (%[[T]], %[[X]], %[[T]])
// CHECK-NOT: stream.cmd.copy
// CHECK: stream.timepoint.await %[[D2]] => %[[T]]
func.func @dispatch_into_target(%vx: !hal.buffer_view, %vt: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t = stream.tensor.import %vt message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%t, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%0, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %0{%s}
  %u = stream.async.update %1, %t[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %u : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An alloca filled in place (tensor.empty + linalg.fill) becomes a fill of
// the target; a clone of the target written in place writes the target.
// CHECK-LABEL: func.func @alloca_and_clone
// CHECK: %[[T:.+]] = stream.tensor.import %arg0
// CHECK: %[[T2:.+]] = stream.tensor.import %arg1
// CHECK-NOT: stream.resource.alloca
// CHECK-NOT: stream.cmd.copy
// CHECK: stream.cmd.fill %{{.+}}, %[[T]] :
// CHECK: stream.cmd.fill %{{.+}}, %[[T2]] :
// CHECK-NOT: stream.cmd.copy
// CHECK: return
func.func @alloca_and_clone(%vt: !hal.buffer_view, %vt2: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i32
  %t = stream.tensor.import %vt message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t2 = stream.tensor.import %vt2 message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %f = stream.async.fill %v, %e : i32 -> !stream.resource<*>{%s}
  %u = stream.async.update %f, %t[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %c = stream.async.clone %t2 : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %f2 = stream.async.fill %v, %c : i32 -> !stream.resource<external>{%s}
  %u2 = stream.async.update %f2, %t2[%c0] : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %o = stream.tensor.export %u : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o2 = stream.tensor.export %u2 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %o, %o2 : !hal.buffer_view, !hal.buffer_view
}

// -----

// The target is read after the value is made: that read needs the target's
// old contents, so the value gets its own storage and is copied.
// CHECK-LABEL: func.func @target_read_later
// CHECK: %[[R:.+]], %{{.+}} = stream.resource.alloca
// CHECK: stream.cmd.dispatch kernel("add") {{.+}} (%[[X:.+]], %[[X]], %[[R]])
// CHECK: stream.cmd.dispatch kernel("mul") {{.+}} (%[[T:.+]], %[[T]], %{{.+}})
// CHECK: stream.cmd.copy %[[R]][%{{.+}}], %[[T]]
func.func @target_read_later(%vx: !hal.buffer_view, %vt: !hal.buffer_view, %n: index) -> (!hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t = stream.tensor.import %vt message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%t, %t) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %u = stream.async.update %0, %t[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %o = stream.tensor.export %u : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o1 = stream.tensor.export %1 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %o, %o1 : !hal.buffer_view, !hal.buffer_view
}

// -----

// An update of part of the target, or of a value something else reads,
// copies as before.
// CHECK-LABEL: func.func @partial_or_shared
// CHECK: stream.cmd.copy
// CHECK: stream.cmd.copy
func.func @partial_or_shared(%vx: !hal.buffer_view, %vt: !hal.buffer_view, %vt2: !hal.buffer_view, %n: index) -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %s2 = stream.tensor.sizeof tensor<8xi32> : index
  %c0 = arith.constant 0 : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %t = stream.tensor.import %vt message("input 1") : !hal.buffer_view -> tensor<8xi32> in !stream.resource<external>{%s2}
  %t2 = stream.tensor.import %vt2 message("input 2") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %u = stream.async.update %0, %t[%c0] : !stream.resource<external>{%s} -> !stream.resource<external>{%s2}
  %u2 = stream.async.update %0, %t2[%c0] : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %o = stream.tensor.export %u : tensor<8xi32> in !stream.resource<external>{%s2} -> !hal.buffer_view
  %o2 = stream.tensor.export %u2 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o3 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %o, %o2, %o3 : !hal.buffer_view, !hal.buffer_view, !hal.buffer_view
}
