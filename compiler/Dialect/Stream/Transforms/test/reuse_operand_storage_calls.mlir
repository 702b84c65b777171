// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage | FileCheck %s
// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s --check-prefix=CMD

// A callee that may write its output over an input gets the storage of the
// input that dies at the call instead of the fresh alloca, twice in a row:
// the whole program then needs one allocation (the first square).
// CHECK-LABEL: func.func @chain
// CHECK: %[[SQ:.+]] = stream.async.dispatch kernel("mul")
// CHECK-NOT: stream.async.alloca
// CHECK: %[[D:.+]] = stream.async.call @Double(%[[SQ]], %[[SQ]]) : {{.+}} -> (%[[SQ]][1]{%{{.+}}})
// CHECK-NOT: stream.async.alloca
// CHECK: stream.async.call @Triple(%[[D]], %[[D]]) : {{.+}} -> (%[[D]][1]{%{{.+}}})
// CMD-LABEL: func.func @chain
// CMD-COUNT-1: stream.resource.alloca
// CMD-NOT: stream.resource.alloca
// CMD: return
func.func private @Double(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {ferry.abi.tied_may_alias, nosideeffects, stream.tied_operands = array<i64: 1>}
func.func private @Triple(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {ferry.abi.tied_may_alias, nosideeffects, stream.tied_operands = array<i64: 1>}
func.func @chain(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %sq = stream.async.dispatch kernel("mul") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %e1 = stream.async.alloca : !stream.resource<*>{%s}
  %d = stream.async.call @Double(%sq, %e1) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%e1{%s})
  %e2 = stream.async.alloca : !stream.resource<external>{%s}
  %t = stream.async.call @Triple(%d, %e2) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> (%e2{%s})
  %out = stream.tensor.export %t : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Without the callee's declaration an input and the output never share
// storage: the callee may read inputs after writing outputs.
// CHECK-LABEL: func.func @undeclared
// CHECK: %[[E:.+]] = stream.async.alloca
// CHECK: stream.async.call @Opaque(%{{.+}}, %[[E]])
func.func private @Opaque(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects, stream.tied_operands = array<i64: 1>}
func.func @undeclared(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %sq = stream.async.dispatch kernel("mul") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %e = stream.async.alloca : !stream.resource<external>{%s}
  %r = stream.async.call @Opaque(%sq, %e) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> (%e{%s})
  %out = stream.tensor.export %r : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An input still read after the call, an input the program may not write
// (the host's import) and an input of another size keep the fresh alloca.
// CHECK-LABEL: func.func @kept
// CHECK: %[[E1:.+]] = stream.async.alloca
// CHECK: stream.async.call @Double(%[[SQ:.+]], %[[E1]])
// CHECK: %[[E2:.+]] = stream.async.alloca
// CHECK: stream.async.call @Double(%{{.+}}, %[[E2]])
// CHECK: %[[E3:.+]] = stream.async.alloca
// CHECK: stream.async.call @Double(%{{.+}}, %[[E3]])
func.func private @Double(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {ferry.abi.tied_may_alias, nosideeffects, stream.tied_operands = array<i64: 1>}
func.func @kept(%view: !hal.buffer_view, %n: index, %s: index, %s2: index) -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view) {
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %sq = stream.async.dispatch kernel("mul") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %e1 = stream.async.alloca : !stream.resource<external>{%s}
  %a = stream.async.call @Double(%sq, %e1) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> (%e1{%s})
  %e2 = stream.async.alloca : !stream.resource<external>{%s}
  %b = stream.async.call @Double(%x, %e2) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> (%e2{%s})
  %sq2 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %e3 = stream.async.alloca : !stream.resource<external>{%s2}
  %c = stream.async.call @Double(%sq2, %e3) : (!stream.resource<external>{%s}, !stream.resource<external>{%s2}) -> (%e3{%s2})
  %o0 = stream.tensor.export %sq : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o1 = stream.tensor.export %a : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o2 = stream.tensor.export %b : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o3 = stream.tensor.export %c : tensor<4xi32> in !stream.resource<external>{%s2} -> !hal.buffer_view
  return %o0, %o1, %o2, %o3 : !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view
}

// -----

// A call that takes an external input's storage gives that type to its
// result and to the in-place dispatch written into the result after it
// (the verifier rejected the dispatch's `*` result tied to an external
// operand before).
// CHECK-LABEL: func.func @dispatch_after_reuse
// CHECK: %[[A:.+]] = stream.tensor.import consume
// CHECK: %[[T:.+]] = stream.async.call @Double(%[[A]], %[[A]]) : {{.+}} -> (%[[A]][1]{%{{.+}}})
// CHECK: stream.async.dispatch kernel("sub") {{.+}} (%[[T]], %[[T]]) : (!stream.resource<external>{%{{.+}}}, !stream.resource<external>{%{{.+}}}) -> %[[T]][0]{%{{.+}}}
func.func private @make() -> !hal.buffer_view
func.func private @Double(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {ferry.abi.tied_may_alias, nosideeffects, stream.tied_operands = array<i64: 1>}
func.func @dispatch_after_reuse(%n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %v = call @make() : () -> !hal.buffer_view
  %a = stream.tensor.import consume %v message("result 0 of 'make'") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %t = stream.async.call @Double(%a, %e) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> (%e{%s})
  %u = stream.async.dispatch kernel("sub") type(i32) count(%n) (%t, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}
