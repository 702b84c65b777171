// RUN: ferry-opt --split-input-file --convert-input-to-stream %s | FileCheck %s

// tensor.splat is an alloca of the result and a fill (ImportTensorOps.h).
// CHECK-LABEL: func.func @splat
// CHECK: %[[A:.+]] = stream.async.alloca : !stream.resource<{{.+}}>{%[[SIZE:.+]]}
// CHECK: stream.async.fill %arg1, %[[A]] : f16 -> !stream.resource<{{.+}}>{%[[SIZE]]}
// CHECK-NOT: stream.async.dispatch
func.func @splat(%n: index, %v: f16) -> tensor<2x?xf16> {
  %0 = tensor.splat %v[%n] : tensor<2x?xf16>
  return %0 : tensor<2x?xf16>
}

// -----

// Constant elements make a module constant; scalars a fill of a
// one-element tensor each and one dispatch choosing among them (a constant
// element among scalars is made inside it: dispatch formation fuses the
// fill of a constant that only the dispatch reads).
// CHECK-LABEL: func.func @from_elements(
// CHECK: stream.async.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK: stream.async.fill %arg0, %{{.+}} : i32
// CHECK: stream.async.fill %arg0, %{{.+}} : i32
// CHECK: stream.async.dispatch.entry @from_elements_dispatch_0::@from_elements_dispatch_0
// CHECK-NOT: stream.async.dispatch
func.func @from_elements(%x: i32) -> (tensor<3xi32>, tensor<3xi32>) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = tensor.from_elements %c1, %c2, %c3 : tensor<3xi32>
  %1 = tensor.from_elements %x, %c2, %x : tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<3xi32>
}

// -----

// bitcast is the same resource under another element type of one width:
// no copy, no dispatch.
// CHECK-LABEL: func.func @bitcast
// CHECK: %[[IN:.+]] = stream.tensor.import %arg0 {{.*}} -> tensor<?x4xf32>{%[[N:.+]]} in !stream.resource<external>{%[[S:.+]]}
// CHECK-NOT: stream.async
// CHECK: stream.tensor.export %[[IN]] : tensor<?x4xi32>{%[[N]]} in !stream.resource<external>{%[[S]]}
func.func @bitcast(%a: tensor<?x4xf32>) -> tensor<?x4xi32> {
  %0 = tensor.bitcast %a : tensor<?x4xf32> to tensor<?x4xi32>
  return %0 : tensor<?x4xi32>
}

// -----

// cast: a dynamic dimension becoming static is checked at run time naming
// the op; a static one becoming dynamic is its constant.
// CHECK-LABEL: func.func @cast
// CHECK: %[[IN:.+]] = stream.tensor.import %arg0 {{.*}} -> tensor<?x4xf32>{%[[N:.+]]} in
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[N]], %[[C3]] : index
// CHECK: cf.assert %[[OK]], "'tensor.cast' at {{.+}}: dimension 0 of the source is not 3"
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK-NOT: stream.async
// CHECK: stream.tensor.export %[[IN]] : tensor<3x?xf32>{%[[C4]]}
func.func @cast(%a: tensor<?x4xf32>) -> tensor<3x?xf32> {
  %0 = tensor.cast %a : tensor<?x4xf32> to tensor<3x4xf32>
  %1 = tensor.cast %0 : tensor<3x4xf32> to tensor<3x?xf32>
  return %1 : tensor<3x?xf32>
}

// -----

// pad: a fill of the padding value, then a copy of the source into the
// interior of the same storage (its outs map offset by the low pad, the
// padded dimensions indexed like windows, checked to fit); dispatch
// formation fuses the two into one dispatch writing the alloca.
// CHECK: affine_map<(d0, d1, d2) -> (d0 + d2 + 1, d1 + d2 + 2)>
// CHECK: func.func @pad_dispatch_0(
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-LABEL: func.func @pad(
// CHECK: %[[A:.+]] = stream.async.alloca
// CHECK-NOT: stream.async.fill
// CHECK: stream.async.dispatch.entry @pad_dispatch_0::@pad_dispatch_0{{.*}}(%[[A]], %{{.+}}) {{.*}} -> %[[A]]{
func.func @pad(%a: tensor<?x3xf32>, %h: index) -> tensor<?x6xf32> {
  %z = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[1, 2] high[%h, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x3xf32> to tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}

// -----

// concat of rows: each input is a byte range of the result, at offsets
// that may be dynamic: an alloca and an update per input, no dispatch; the
// other dims of the inputs are checked to agree.
// CHECK-LABEL: func.func @concat_rows(
// CHECK: %[[IN0:.+]] = stream.tensor.import %arg0 {{.*}} in !stream.resource<external>{%[[S0:.+]]}
// CHECK: %[[IN1:.+]] = stream.tensor.import %arg1 {{.*}} in !stream.resource<external>{%[[S1:.+]]}
// CHECK: cf.assert %{{.+}}, "inputs of 'tensor.concat' at {{.+}} differ in dimension 1"
// CHECK: %[[A:.+]] = stream.async.alloca
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[U0:.+]] = stream.async.update %[[IN0]], %[[A]][%[[C0]]]
// CHECK: %[[O1:.+]] = arith.addi %[[C0]], %[[S0]] : index
// CHECK: stream.async.update %[[IN1]], %[[U0]][%[[O1]]]
// CHECK-NOT: stream.async.dispatch
func.func @concat_rows(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// concat on an inner axis: one dispatch per input writing it into its part
// of one storage.
// CHECK-LABEL: func.func @concat_columns(
// CHECK: %[[A:.+]] = stream.async.alloca
// CHECK: %[[D0:.+]] = stream.async.dispatch.entry @concat_columns_dispatch_0::@concat_columns_dispatch_0{{.*}} -> %[[A]]{
// CHECK: stream.async.dispatch.entry @concat_columns_dispatch_1::@concat_columns_dispatch_1{{.*}} -> %[[D0]]{
// CHECK-NOT: stream.async.dispatch
func.func @concat_columns(%a: tensor<3x2xf32>, %b: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %0 = tensor.concat dim(1) %a, %b : (tensor<3x2xf32>, tensor<3x?xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// pooling_nhwc_min dispatches like max and sum: its window is no binding.
// CHECK-LABEL: func.func @pool_min(
// CHECK: stream.async.dispatch.entry @pool_min_dispatch_0::@pool_min_dispatch_0 {{.*}}(%{{[^,]+}}, %{{[^,]+}}) :
func.func @pool_min(%x: tensor<1x6x6x2xf32>, %acc: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nhwc_min {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}
