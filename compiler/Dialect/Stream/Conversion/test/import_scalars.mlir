// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Scalar arguments and results stay scalars, in their positions, next to
// the buffer views of the tensors; a scalar argument may be a fill value
// and a dimension.
// CHECK-LABEL: func.func @fill(
// CHECK-SAME: %[[N:.+]]: index, %[[A:.+]]: !hal.buffer_view, %[[V:.+]]: f32) -> (!hal.buffer_view, f32, index)
// CHECK:   %[[IN:.+]] = stream.tensor.import %[[A]] message("input 1")
// CHECK:   %[[SIZE:.+]] = stream.tensor.sizeof tensor<?xf32>{%[[N]]}
// CHECK:   %[[E:.+]] = stream.async.alloca : !stream.resource<{{.+}}>{%[[SIZE]]}
// CHECK:   stream.async.fill %[[V]], %[[E]]
// CHECK:   %[[OUT:.+]] = stream.tensor.export
// CHECK:   return %[[OUT]], %[[V]], %[[N]] : !hal.buffer_view, f32, index
func.func @fill(%n: index, %a: tensor<4xi32>, %v: f32) -> (tensor<?xf32>, f32, index) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f, %v, %n : tensor<?xf32>, f32, index
}

// -----

// A call between functions of the module passes scalars as they are and
// tensors as views.
// CHECK-LABEL: func.func private @scale(
// CHECK-SAME: %{{.+}}: !hal.buffer_view, %[[K:.+]]: i32) -> (i1, !hal.buffer_view)
// CHECK-LABEL: func.func @main(
// CHECK:   %[[V:.+]] = stream.tensor.export
// CHECK:   %[[R:.+]]:2 = call @scale(%[[V]], %{{.+}}) : (!hal.buffer_view, i32) -> (i1, !hal.buffer_view)
// CHECK:   stream.tensor.import consume %[[R]]#1 message("result 1 of 'scale'")
// CHECK:   return %[[R]]#0, %{{.+}} : i1, !hal.buffer_view
func.func private @scale(%t: tensor<4xi32>, %k: i32) -> (i1, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %f = linalg.fill ins(%k : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %m = arith.muli %t, %f : tensor<4xi32>
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %k, %c0 : i32
  return %neg, %m : i1, tensor<4xi32>
}
func.func @main(%t: tensor<4xi32>, %k: i32) -> (i1, tensor<4xi32>) {
  %neg, %m = call @scale(%t, %k) : (tensor<4xi32>, i32) -> (i1, tensor<4xi32>)
  return %neg, %m : i1, tensor<4xi32>
}

// -----

// tensor.extract is a host read of one element at its row-major byte
// offset, after a run-time check of each index not known to be in bounds.
// CHECK-LABEL: func.func @extract(
// CHECK-SAME: %[[A:.+]]: !hal.buffer_view, %[[I:.+]]: index, %[[J:.+]]: index) -> (i32, i32)
// CHECK:   %[[SIZE:.+]] = stream.tensor.sizeof tensor<2x3xi32>
// CHECK:   %[[IN:.+]] = stream.tensor.import %[[A]]
// CHECK:   %[[C2:.+]] = arith.constant 2 : index
// CHECK:   %[[OK0:.+]] = arith.cmpi ult, %[[I]], %[[C2]] : index
// CHECK:   cf.assert %[[OK0]], "'tensor.extract' at {{.*}}import_scalars.mlir:{{[0-9]+}}:{{[0-9]+}}: index of dimension 0 is out of bounds"
// CHECK:   %[[C3:.+]] = arith.constant 3 : index
// CHECK:   %[[OK1:.+]] = arith.cmpi ult, %[[J]], %[[C3]] : index
// CHECK:   cf.assert %[[OK1]], "'tensor.extract' at {{.*}}: index of dimension 1 is out of bounds"
// CHECK:   %[[ROW:.+]] = arith.muli %[[I]], %[[C3]]
// CHECK:   %[[LIN:.+]] = arith.addi %[[ROW]], %[[J]]
// CHECK:   %[[C4:.+]] = arith.constant 4 : index
// CHECK:   %[[OFF:.+]] = arith.muli %[[LIN]], %[[C4]]
// CHECK:   %[[V:.+]] = stream.resource.load %[[IN]][%[[OFF]]] : !stream.resource<external>{%[[SIZE]]} -> i32
// Constant indices in static dimensions need no check.
// CHECK-NOT: cf.assert
// CHECK:   %[[W:.+]] = stream.resource.load %[[IN]][%{{.+}}] : !stream.resource<external>{%[[SIZE]]} -> i32
// CHECK:   return %[[V]], %[[W]] : i32, i32
func.func @extract(%t: tensor<2x3xi32>, %i: index, %j: index) -> (i32, i32) {
  %c1 = arith.constant 1 : index
  %v = tensor.extract %t[%i, %j] : tensor<2x3xi32>
  %w = tensor.extract %t[%c1, %c1] : tensor<2x3xi32>
  return %v, %w : i32, i32
}

// -----

// A constant index into a dynamic dimension is checked at run time.
// CHECK-LABEL: func.func @extract_dynamic(
// CHECK:   %[[D:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view> [0]
// CHECK:   %[[OK:.+]] = arith.cmpi ult, %{{.+}}, %[[D]] : index
// CHECK:   cf.assert %[[OK]]
// CHECK:   stream.resource.load {{.+}} -> f32
func.func @extract_dynamic(%t: tensor<?xf32>) -> f32 {
  %c5 = arith.constant 5 : index
  %v = tensor.extract %t[%c5] : tensor<?xf32>
  return %v : f32
}
