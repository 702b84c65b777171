// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --verify-diagnostics

// linalg ops dispatch formation does not take yet (import_linalg.mlir has
// the ones it does).
func.func @pool_max_unsigned(%a: tensor<1x4x4x1xi32>, %c: tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xi32> {
  %w = tensor.empty() : tensor<2x2xi32>
  // expected-error @+1 {{'linalg.pooling_nhwc_max_unsigned' is not supported by Ferry}}
  %0 = linalg.pooling_nhwc_max_unsigned {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%a, %w : tensor<1x4x4x1xi32>, tensor<2x2xi32>) outs(%c : tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}

// -----

func.func @generate(%n: index) -> tensor<?xf32> {
  // expected-error @+1 {{'tensor.generate' is not supported by Ferry}}
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Every problem is reported, not only the first.
func.func @two(%a: tensor<4xf32>) -> (tensor<8xf32>, index) {
  // expected-error @+1 {{'tensor.generate' is not supported by Ferry}}
  %0 = tensor.generate {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<8xf32>
  // expected-error @+1 {{'tensor.rank' is not supported by Ferry}}
  %1 = tensor.rank %0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, index
}

// -----

// Scalars cross a boundary in an i64 register: nothing wider.
// expected-error @+1 {{argument 0 of function 'scalar' has type 'i128'; only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 and scalars (index, integers of up to 64 bits, f16, bf16, f32, f64) cross a function boundary}}
func.func @scalar(%a: i128) -> tensor<4xi32> {
  %0 = arith.constant dense<1> : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// expected-error @+2 {{argument 0 of function 'unsupported_element' has type 'tensor<4xf8E4M3FN>'}}
// expected-error @+1 {{result 0 of function 'unsupported_element' has type 'tensor<4xf8E4M3FN>'}}
func.func @unsupported_element(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'arith.addf' on 'tensor<4xf8E4M3FN>' is not supported: only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 are}}
  %0 = arith.addf %a, %a : tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// A callee's tensor signature is checked like any function's.
// expected-error @+1 {{argument 1 of function 'mixed' has type 'i128'}}
func.func private @mixed(%a: tensor<4xi32>, %n: i128) -> tensor<4xi32> {
  return %a : tensor<4xi32>
}
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %c1 = arith.constant 1 : i128
  %0 = call @mixed(%a, %c1) : (tensor<4xi32>, i128) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
