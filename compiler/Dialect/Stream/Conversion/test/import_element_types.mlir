// RUN: ferry-opt --split-input-file --convert-input-to-stream --verify-diagnostics %s | FileCheck %s

// i1, f16 and bf16 tensors are runtime tensors: imported, filled and
// returned like any other; add/sub/mul on them are compiled dispatches (a
// linalg.generic each), as on every other type.
// CHECK-LABEL: func.func @arith_on_new_types
// CHECK: stream.tensor.import %{{.+}} : !hal.buffer_view -> tensor<4xf16>
// CHECK: stream.async.dispatch.entry @arith_on_new_types_dispatch_0::@arith_on_new_types_dispatch_0
// CHECK: stream.async.dispatch.entry @arith_on_new_types_dispatch_1::@arith_on_new_types_dispatch_1
// CHECK: stream.async.dispatch.entry @arith_on_new_types_dispatch_2::@arith_on_new_types_dispatch_2
// CHECK: stream.async.dispatch.entry @arith_on_new_types_dispatch_3::@arith_on_new_types_dispatch_3
// CHECK-NOT: stream.async.dispatch kernel
// CHECK: return
func.func @arith_on_new_types(%h: tensor<4xf16>, %b: tensor<4xbf16>,
                              %m: tensor<4xi1>, %f: tensor<4xf32>)
    -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xi1>, tensor<4xf32>) {
  %0 = arith.addf %h, %h : tensor<4xf16>
  %1 = arith.mulf %b, %b : tensor<4xbf16>
  %2 = arith.addi %m, %m : tensor<4xi1>
  %3 = arith.addf %f, %f : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf16>, tensor<4xbf16>, tensor<4xi1>, tensor<4xf32>
}

// -----

// Splats of each new type are fills of their element (an i1 fills bytes of
// 0 or 1); distinct elements are a module constant.
// CHECK-LABEL: func.func @constants
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: stream.async.splat %[[TRUE]] : i1 ->
// CHECK: %[[HALF:.+]] = arith.constant 1.500000e+00 : f16
// CHECK: stream.async.splat %[[HALF]] : f16 ->
// CHECK: %[[BF:.+]] = arith.constant -2.500000e+00 : bf16
// CHECK: stream.async.splat %[[BF]] : bf16 ->
// CHECK: stream.async.constant dense<[true, false, true]> : tensor<3xi1>
func.func @constants() -> (tensor<3xi1>, tensor<3xf16>, tensor<3xbf16>, tensor<3xi1>) {
  %0 = arith.constant dense<true> : tensor<3xi1>
  %1 = arith.constant dense<1.5> : tensor<3xf16>
  %2 = arith.constant dense<-2.5> : tensor<3xbf16>
  %3 = arith.constant dense<[true, false, true]> : tensor<3xi1>
  return %0, %1, %2, %3 : tensor<3xi1>, tensor<3xf16>, tensor<3xbf16>, tensor<3xi1>
}

// -----

// Types the runtime still does not hold are refused by name and place.
func.func @still_refused(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'arith.constant' on 'tensor<4xi4>' is not supported: only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 are}}
  %0 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi4>
  return %a : tensor<4xi32>
}
