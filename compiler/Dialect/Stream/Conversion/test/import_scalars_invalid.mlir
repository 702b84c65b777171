// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --verify-diagnostics

// An index known at compile time to be out of bounds is a compile error.
func.func @out_of_bounds(%t: tensor<2x3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{index 3 of dimension 1 is out of bounds for 'tensor<2x3xi32>'}}
  %v = tensor.extract %t[%c0, %c3] : tensor<2x3xi32>
  return %v : i32
}

// -----

func.func @negative(%t: tensor<?xi32>) -> i32 {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{index -1 of dimension 0 is out of bounds for 'tensor<?xi32>'}}
  %v = tensor.extract %t[%m1] : tensor<?xi32>
  return %v : i32
}

// -----

// Only tensors are written in place or handed over.
// expected-error @+1 {{result 0 of 'tied' is the scalar 'i32'; only tensor results may be tied (iree.abi.tied)}}
func.func @tied(%a: i32, %t: tensor<4xi32>) -> (i32 {iree.abi.tied = 0 : index}) {
  return %a : i32
}

// -----

// expected-error @+1 {{argument 0 of 'consumed' is the scalar 'i32'; only tensor arguments may be consumed (iree.abi.consume)}}
func.func @consumed(%a: i32 {iree.abi.consume}, %t: tensor<4xi32>) -> tensor<4xi32> {
  return %t : tensor<4xi32>
}

// -----

// External functions take tensors only (the coarse-fences ABI).
// expected-error @+1 {{argument 1 of function 'ext.f' has type 'i32'; only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 cross a function boundary}}
func.func private @ext.f(tensor<4xi32>, i32) -> tensor<4xi32> attributes {iree.abi.model = "coarse-fences"}
func.func @main(%t: tensor<4xi32>, %k: i32) -> tensor<4xi32> {
  // expected-error @+1 {{'func.call' on 'i32' is not supported: only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 are}}
  %r = call @ext.f(%t, %k) : (tensor<4xi32>, i32) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
