// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// A tensor constant of distinct elements becomes the module's constant data
// (a splat stays a fill: see convert_input_to_stream.mlir). Returned, it is
// copied: the module's copy is read-only and the caller owns its results.
// CHECK-LABEL: func.func @dense(
// CHECK: %[[C:.+]] = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<*>{%[[S:.+]]}
// CHECK: stream.async.dispatch.entry {{.+}} (%{{.+}}, %[[C]], %{{.+}})
// CHECK: %[[COPY:.+]] = stream.async.transfer %[[C]] : !stream.resource<*>{%[[S]]} -> !stream.resource<external>{%[[S]]}
// CHECK: stream.tensor.export %[[COPY]]
func.func @dense(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = arith.addi %a, %c : tensor<4xi32>
  return %0, %c : tensor<4xi32>, tensor<4xi32>
}

// -----

// A resource blob (the form front ends emit for weights) is constant data
// too; its bytes stay in the blob.
// CHECK-LABEL: func.func @blob(
// CHECK: stream.async.constant dense_resource<weights> : tensor<2xf32>
func.func @blob(%a: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense_resource<weights> : tensor<2xf32>
  %0 = arith.mulf %a, %w : tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}
