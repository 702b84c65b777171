// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage | FileCheck %s
// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s --check-prefix=CMD

// An elementwise chain on dead operands writes in place after the first op.
// CHECK-LABEL: func.func @chain
// CHECK: %[[T0:.+]] = stream.async.dispatch kernel("mul") {{.+}} -> !stream.resource<external>{%{{.+}}}
// CHECK: %[[T1:.+]] = stream.async.dispatch kernel("add") {{.+}} (%[[T0]], %{{.+}}) : {{.+}} -> %[[T0]]{%{{.+}}}
// CHECK: stream.async.dispatch kernel("mul") {{.+}} (%[[T1]], %[[T1]]) : {{.+}} -> %[[T1]][0]{%{{.+}}}
// CMD-LABEL: func.func @chain
// CMD-COUNT-1: stream.resource.alloca
// CMD-NOT: stream.resource.alloca
// CMD-NOT: stream.resource.dealloca
func.func @chain(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("add") type(f32) count(%n) (%0, %a) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %2 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%1, %1) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %2 : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Imports are the host's and operands read later are still needed.
// CHECK-LABEL: func.func @not_dead
// CMD-LABEL: func.func @not_dead
// CHECK-NOT: -> %
func.func @not_dead(%view: !hal.buffer_view, %n: index) -> (!hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("mul") type(f32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %1 = stream.async.dispatch kernel("add") type(f32) count(%n) (%0, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %o0 = stream.tensor.export %0 : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o1 = stream.tensor.export %1 : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %o0, %o1 : !hal.buffer_view, !hal.buffer_view
}

// -----

// A buffer a call to another function returned is the program's own (the
// callee handed over its only ownership): a dispatch writes into it in
// place. The host's input is not written.
// CHECK-LABEL: func.func @callee_result
// CHECK: %[[R:.+]] = stream.tensor.import consume
// CHECK: stream.async.dispatch kernel("add") {{.+}} (%[[R]], %{{.+}}) : {{.+}} -> %[[R]]{%{{.+}}}
func.func private @make(%v: !hal.buffer_view) -> !hal.buffer_view
func.func @callee_result(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xf32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %rv = call @make(%view) : (!hal.buffer_view) -> !hal.buffer_view
  %r = stream.tensor.import consume %rv message("result 0 of 'make'") : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%s}
  %sum = stream.async.dispatch kernel("add") type(f32) count(%n) (%r, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %sum : tensor<4xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A dispatch written into a callee's result (external, the program's own)
// gives that type to its result and to the in-place writers after it: the
// fill keeps its target's type (the verifier rejected it before).
// CHECK-LABEL: func.func @fill_after_reuse
// CHECK: %[[A:.+]] = stream.tensor.import consume
// CHECK: %[[D:.+]] = stream.async.dispatch kernel("sub") {{.+}} -> %[[A]][0]{%{{.+}}}
// CHECK: stream.async.fill %{{.+}}, %[[D]] : i32 -> !stream.resource<external>{%{{.+}}}
func.func private @make() -> !hal.buffer_view
func.func @fill_after_reuse(%n: index, %k: i32) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %v = call @make() : () -> !hal.buffer_view
  %a = stream.tensor.import consume %v message("result 0 of 'make'") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %d = stream.async.dispatch kernel("sub") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %f = stream.async.fill %k, %d : i32 -> !stream.resource<*>{%s}
  %e = stream.async.dispatch kernel("add") type(i32) count(%n) (%f, %f) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}
