// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// External declarations: iree.abi.tied becomes the function's tied operands;
// the ABI attributes are carried. A call writes its tied result into the
// operand: the result *is* that operand.
// CHECK-LABEL: module @ties
// CHECK: func.func private @Double.function(tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
// CHECK-SAME: iree.abi.model = "coarse-fences"
// CHECK-SAME: nosideeffects
// CHECK-SAME: stream.tied_operands = array<i64: 1>
// CHECK-NOT: iree.abi.tied
// CHECK: func.func @main(
// CHECK: %[[D0:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view> [0]
// CHECK: %[[D1:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view> [1]
// CHECK: %[[A:.+]] = stream.tensor.import
// The empty tensor is returned through the tie, so its storage is external.
// CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<external>{%[[S:.+]]}
// CHECK: %[[R:.+]] = stream.async.call @Double.function(%[[A]], %[[E]]) dims(%[[D0]], %[[D1]], %[[D0]], %[[D1]]) : (!stream.resource<external>{%{{.+}}}, !stream.resource<external>{%[[S]]}) -> (%[[E]]{%[[S]]})
// CHECK: stream.tensor.export %[[R]]
module @ties {
  func.func private @Double.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {
    iree.abi.model = "coarse-fences",
    nosideeffects
  }
  func.func @main(%arg0: tensor<?x?xi32>) -> tensor<?x?xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %d0 = tensor.dim %arg0, %c0 : tensor<?x?xi32>
    %d1 = tensor.dim %arg0, %c1 : tensor<?x?xi32>
    %init = tensor.empty(%d0, %d1) : tensor<?x?xi32>
    %0 = call @Double.function(%arg0, %init) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
    return %0 : tensor<?x?xi32>
  }
}

// -----

// Mixed tied and untied results: the untied one is a new resource.
// CHECK-LABEL: module @mixed
// CHECK: func.func private @split(tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>)
// CHECK-SAME: stream.tied_operands = array<i64: 0, -1>
// CHECK: %[[S2:.+]] = stream.tensor.sizeof tensor<2xf32> : index
// CHECK: %{{.+}}:2 = stream.async.call @split(%[[A:.+]], %[[B:.+]]) : ({{.+}}) -> (%[[A]]{%{{.+}}}, !stream.resource<external>{%[[S2]]})
module @mixed {
  func.func private @split(tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32> {iree.abi.tied = 0 : index}, tensor<2xf32>)
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
    %0:2 = call @split(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<2xf32>)
    return %0#0, %0#1 : tensor<4xf32>, tensor<2xf32>
  }
}

// -----

// Splat constants and linalg.fill become splats and in-place fills.
// CHECK-LABEL: module @splats
// CHECK: %[[C7:.+]] = arith.constant 7 : i32
// CHECK: %[[SPLAT:.+]] = stream.async.splat %[[C7]] : i32 -> !stream.resource<*>
// CHECK: stream.async.dispatch.entry {{.+}} (%{{.+}}, %[[SPLAT]], %{{.+}})
// CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<external>
// CHECK: stream.async.fill %{{.+}}, %[[E]] : i32 -> !stream.resource<external>
module @splats {
  func.func @main(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
    %c = arith.constant dense<7> : tensor<4xi32>
    %s = arith.addi %a, %c : tensor<4xi32>
    %zero = arith.constant 0 : i32
    %e = tensor.empty() : tensor<4xi32>
    %f = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    return %s, %f : tensor<4xi32>, tensor<4xi32>
  }
}

// -----

// A new result of dynamic shape: only the function knows its dims, so the
// call passes views, as between functions of the module, and the result is
// imported (owned: consume) with the dims of the view it returns. The
// declaration takes views and is marked for result allocation.
// CHECK-LABEL: module @dynamic_new_result
// CHECK: func.func private @Repeat.function(!hal.buffer_view) -> !hal.buffer_view
// CHECK-SAME: ferry.abi.result_allocation
// CHECK: func.func @main(
// CHECK: %[[A:.+]] = stream.tensor.import
// CHECK: %[[V:.+]] = stream.tensor.export %[[A]]
// CHECK: %[[R:.+]] = call @Repeat.function(%[[V]]) : (!hal.buffer_view) -> !hal.buffer_view
// CHECK: %[[N:.+]] = hal.buffer_view.dim<%[[R]] : !hal.buffer_view> [0]
// CHECK: stream.tensor.import consume %[[R]] message("result 0 of 'Repeat.function'") : !hal.buffer_view -> tensor<?xi32>{%[[N]]}
// CHECK-NOT: stream.async.call
module @dynamic_new_result {
  func.func private @Repeat.function(tensor<?xi32>) -> tensor<?xi32> attributes {iree.abi.model = "coarse-fences"}
  func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
    %0 = call @Repeat.function(%x) : (tensor<?xi32>) -> tensor<?xi32>
    return %0 : tensor<?xi32>
  }
}
