// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Operands of an elementwise op whose dynamic dimensions come from different
// values are checked at run time, one assert per dimension, before the
// dispatch, naming the op as written (not the generic it becomes).
// CHECK-LABEL: func.func @two_inputs
// CHECK-DAG: %[[A0:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK-DAG: %[[A1:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [1]
// CHECK-DAG: %[[B0:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view> [0]
// CHECK-DAG: %[[B1:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view> [1]
// CHECK: %[[SAME0:.+]] = arith.cmpi eq, %[[A0]], %[[B0]] : index
// CHECK: cf.assert %[[SAME0]], "operands of 'arith.addi' at {{.+}}import_dynamic_dims.mlir:{{[0-9]+}}:{{[0-9]+}} differ in dimension 0"
// CHECK: %[[SAME1:.+]] = arith.cmpi eq, %[[A1]], %[[B1]] : index
// CHECK: cf.assert %[[SAME1]], "operands of 'arith.addi' at {{.+}} differ in dimension 1"
// CHECK: stream.async.dispatch.entry
func.func @two_inputs(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = arith.addi %a, %b : tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// -----

// Operands whose dimensions are the same values need no check: the same
// tensor twice, and a result combined with one of its operands.
// CHECK-LABEL: func.func @same_dims
// CHECK-NOT: cf.assert
// CHECK: return
func.func @same_dims(%a: tensor<?xi32>) -> tensor<?xi32> {
  %0 = arith.muli %a, %a : tensor<?xi32>
  %1 = arith.addi %0, %a : tensor<?xi32>
  return %1 : tensor<?xi32>
}
