// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s

// Each dispatch result is allocated; an intermediate is freed right after its
// last use (before the next dispatch), not at the end of the function.
// CHECK-LABEL: func.func @chain
// CHECK: %[[T0:.+]], %[[T0A:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>{%[[S:.+]]} => !stream.timepoint
// CHECK: %[[D0:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[T0A]]) (%[[A:.+]], %[[A]], %[[T0]])
// CHECK: %[[T1:.+]], %[[T1A:.+]] = stream.resource.alloca uninitialized : !stream.resource<external>{%[[S]]}
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[D0]], %[[T1A]])
// CHECK: %[[D1:.+]] = stream.cmd.dispatch kernel("add") {{.+}} await(%[[J]]) (%[[T0]], %[[A]], %[[T1]])
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D1]]) %[[T0]] : !stream.resource<transient>{%[[S]]}
// CHECK: %[[R:.+]] = stream.timepoint.await %[[D1]] => %[[T1]] : (!stream.resource<external>{%[[S]]})
// CHECK: stream.tensor.export %[[R]]
// CHECK: stream.timepoint.await %[[F]]
// CHECK-NEXT: return
func.func @chain(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("add") type(f32) count(%n) (%0, %a) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %1 : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Imports belong to the host: never deallocated. An unread result is freed
// as soon as it is written; both frees are awaited before returning.
// CHECK-LABEL: func.func @unused
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK: %[[D:.+]] = stream.cmd.dispatch
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D]]) %[[T]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: stream.timepoint.await %[[F]]
// CHECK-NEXT: return
func.func @unused(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %out = stream.tensor.export %a : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An operand used twice by its last user is freed once.
// CHECK-LABEL: func.func @twice
// CHECK-COUNT-1: stream.resource.dealloca
// CHECK-NOT: stream.resource.dealloca
func.func @twice(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%0, %0) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %1 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
