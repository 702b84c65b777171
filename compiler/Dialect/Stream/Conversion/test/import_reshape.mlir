// RUN: ferry-opt --split-input-file --convert-input-to-stream %s | FileCheck %s

// A row-major reshape is the same bytes: the collapsed and the expanded
// tensors are the source's resource, with no copy and no dispatch of their
// own.
// CHECK-LABEL: func.func @collapse(
// CHECK:         %[[A:.*]] = stream.tensor.import %arg0
// CHECK-NOT:     stream.async.clone
// CHECK-NOT:     stream.async.dispatch
// CHECK:         stream.async.dispatch.entry @collapse_dispatch_0::@collapse_dispatch_0 {{.*}}(%[[A]], %{{.*}})
// CHECK-NOT:     stream.async.dispatch
// CHECK:         return
func.func @collapse(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %f = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %r = linalg.copy ins(%f : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// Dynamic dims of a collapsed group multiply; the dispatch gets them as
// push constants.
// CHECK-LABEL: func.func @collapse_dynamic(
// CHECK-DAG:     %[[D0:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK-DAG:     %[[D1:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [1]
// CHECK:         %[[A:.*]] = stream.tensor.import %arg0
// CHECK:         %[[N:.*]] = arith.muli %[[D0]], %[[D1]]
// CHECK:         stream.async.dispatch.entry {{.*}} push_constants(%[[N]], %[[N]]) (%[[A]], %{{.*}})
func.func @collapse_dynamic(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %f = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %n = tensor.dim %f, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.copy ins(%f : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// An expansion's dynamic output sizes must multiply to the source's
// dimension: checked at run time.
// CHECK-LABEL: func.func @expand_dynamic(
// CHECK:         %[[N:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK:         %[[A:.*]] = stream.tensor.import %arg0
// CHECK:         %[[P:.*]] = arith.muli %arg1, %c4
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[P]], %[[N]]
// CHECK:         cf.assert %[[SAME]], "'tensor.expand_shape' at {{.*}}import_reshape.mlir:{{[0-9]+}}:{{[0-9]+}}: the output sizes of group 0 do not multiply to source dimension 0"
// CHECK-NOT:     stream.async.clone
// CHECK:         stream.async.dispatch.entry {{.*}} push_constants(%arg1, %arg1) (%[[A]], %{{.*}})
func.func @expand_dynamic(%a: tensor<?xf32>, %m: index) -> tensor<?x4xf32> {
  %x = tensor.expand_shape %a [[0, 1]] output_shape [%m, 4] : tensor<?xf32> into tensor<?x4xf32>
  %e = tensor.empty(%m) : tensor<?x4xf32>
  %r = linalg.copy ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
