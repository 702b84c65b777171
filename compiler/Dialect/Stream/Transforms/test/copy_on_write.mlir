// RUN: ferry-opt %s --split-input-file --stream-materialize-copy-on-write | FileCheck %s

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A single tied user needs no copy.
// CHECK-LABEL: func.func @single_user
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%[[A:.+]], %[[T:.+]]) : {{.+}} -> (%[[T]]{%{{.+}}})
func.func @single_user(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %v = arith.constant 1 : i32
  %t = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%t{%s})
  return %r : !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// Undefined contents are never copied: a second tied use of an alloca gets
// a fresh alloca, not a clone.
// CHECK-LABEL: func.func @empty_twice
// CHECK-NOT: stream.async.clone
// CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<*>{%[[S:.+]]}
// CHECK-NOT: stream.async.clone
// CHECK: %[[E2:.+]] = stream.async.alloca : !stream.resource<*>{%[[S]]}
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[E2]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[E]])
// CHECK-NOT: stream.async.clone
func.func @empty_twice(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %r1 = stream.async.call @write(%a, %e) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%e{%s})
  %r2 = stream.async.call @write(%a, %e) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%e{%s})
  return %r1, %r2 : !stream.resource<*>, !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A splat used by two tied calls becomes two splats.
// CHECK-LABEL: func.func @splat_twice
// CHECK-NOT: stream.async.clone
// CHECK: %[[V:.+]] = arith.constant 3 : i32
// CHECK-NOT: stream.async.clone
// CHECK: %[[S1:.+]] = stream.async.splat %[[V]] : i32 -> !stream.resource<*>
// CHECK-NOT: stream.async.clone
// CHECK: %[[S2:.+]] = stream.async.splat %[[V]] : i32 -> !stream.resource<*>
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[S2]])
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[S1]])
// CHECK-NOT: stream.async.clone
func.func @splat_twice(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %v = arith.constant 3 : i32
  %t = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %r1 = stream.async.call @write(%a, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%t{%s})
  %r2 = stream.async.call @write(%a, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%t{%s})
  return %r1, %r2 : !stream.resource<*>, !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A constant is immutable: cloned before a tied use even when used once.
// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.+]] = stream.async.constant
// CHECK: %[[CLONE:.+]] = stream.async.clone %[[C]]
// CHECK: stream.async.call @write(%{{.+}}, %[[CLONE]])
func.func @constant(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %c = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %c) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%c{%s})
  return %r : !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// The same value passed twice to one call: the written copy is a clone.
// CHECK-LABEL: func.func @same_value_twice
// CHECK: %[[X:.+]] = stream.async.dispatch
// CHECK: %[[CLONE:.+]] = stream.async.clone %[[X]]
// CHECK: stream.async.call @write(%[[X]], %[[CLONE]]) : {{.+}} -> (%[[CLONE]]{%{{.+}}})
func.func @same_value_twice(%a: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %x = stream.async.dispatch kernel("add") type(i32) count(%s) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%x, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%x[1]{%s})
  return %r : !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// The copy is made on the device of the op that writes into it.
// CHECK-LABEL: func.func @writer_affinity
// CHECK: %[[C:.+]] = stream.async.clone %{{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK: stream.async.call @write(%{{.+}}, %[[C]])
func.func @writer_affinity(%a: !stream.resource<*>, %t: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %r = stream.async.call @write(%a, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%t{%s}) {stream.affinity = #hal.device.affinity<@b>}
  return %r : !stream.resource<*>
}

// -----

// A fill sets every element, so the copy it writes into is a fresh alloca
// even when the value it overwrites still holds data someone reads.
// CHECK-LABEL: func.func @fill_over_read_value
// CHECK-SAME: (%[[A:.+]]: !stream.resource<*>, %[[S:.+]]: index)
// CHECK-NOT: stream.async.clone
// CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<*>{%[[S]]}
// CHECK-NOT: stream.async.clone
// CHECK: %[[F:.+]] = stream.async.fill %{{.+}}, %[[E]] : i32 -> !stream.resource<*>{%[[S]]}
// CHECK-NOT: stream.async.clone
// CHECK: return %[[A]], %[[F]]
func.func @fill_over_read_value(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %v = arith.constant 9 : i32
  %f = stream.async.fill %v, %a : i32 -> !stream.resource<*>{%s}
  return %a, %f : !stream.resource<*>, !stream.resource<*>
}

// -----

func.func private @write(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 1>}

// A fill's result something else still reads is filled again into a fresh
// alloca rather than cloned (a zero accumulator also read after the
// dispatch writing it).
// CHECK-LABEL: func.func @fill_read_later
// CHECK-NOT: stream.async.clone
// CHECK: %[[V:.+]] = arith.constant 0 : i32
// CHECK: stream.async.fill %[[V]], %{{.+}} : i32 -> !stream.resource<*>{%[[S:.+]]}
// CHECK-NOT: stream.async.clone
// CHECK: %[[E2:.+]] = stream.async.alloca : !stream.resource<*>{%[[S]]}
// CHECK: %[[F2:.+]] = stream.async.fill %[[V]], %[[E2]]
// CHECK-NOT: stream.async.clone
// CHECK: stream.async.call @write(%{{.+}}, %[[F2]])
// CHECK-NOT: stream.async.clone
// CHECK: return
func.func @fill_read_later(%a: !stream.resource<*>, %s: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %v = arith.constant 0 : i32
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %f = stream.async.fill %v, %e : i32 -> !stream.resource<*>{%s}
  %r = stream.async.call @write(%a, %f) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%f{%s})
  return %r, %f : !stream.resource<*>, !stream.resource<*>
}
