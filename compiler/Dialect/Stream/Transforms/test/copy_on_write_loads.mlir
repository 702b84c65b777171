// RUN: ferry-opt %s --split-input-file --stream-materialize-copy-on-write --stream-elide-async-copies | FileCheck %s

// A host load is a read: a fill of the value before the load in program
// order must not overwrite what the load reads, so the fill writes a copy.
// CHECK-LABEL: func.func @load_after_fill
// CHECK: %[[A:.+]] = stream.async.dispatch
// CHECK: %[[FRESH:.+]] = stream.async.alloca
// CHECK: stream.async.fill %{{.+}}, %[[FRESH]]
// CHECK: stream.resource.load %[[A]]
func.func @load_after_fill(%view: !hal.buffer_view, %n: index, %x: i32) -> (i32, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %in = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %a = stream.async.dispatch kernel("add") type(i32) count(%n) (%in, %in) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %f = stream.async.fill %x, %a : i32 -> !stream.resource<external>{%s}
  %v = stream.resource.load %a[%c0] : !stream.resource<external>{%s} -> i32
  %out = stream.tensor.export %f : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v, %out : i32, !hal.buffer_view
}

// -----

// A clone only loaded from (read-only) is elided.
// CHECK-LABEL: func.func @load_of_clone
// CHECK-NOT: stream.async.clone
// CHECK: stream.resource.load
func.func @load_of_clone(%view: !hal.buffer_view) -> i32 {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c0 = arith.constant 0 : index
  %in = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %c = stream.async.clone %in : !stream.resource<external>{%s} -> !stream.resource<external>{%s}
  %v = stream.resource.load %c[%c0] : !stream.resource<external>{%s} -> i32
  return %v : i32
}
