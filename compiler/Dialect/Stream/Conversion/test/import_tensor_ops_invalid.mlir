// RUN: ferry-opt --split-input-file --convert-input-to-stream --verify-diagnostics %s

// A dynamic low padding is an update of a byte range: refused where the
// source is not one contiguous range of the result (dim 1 padded after a
// dim of 3).
func.func @pad_dynamic_low(%a: tensor<3x4xf32>, %l: index) -> tensor<3x?xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' with dynamic low padding is not supported unless the source is one contiguous range of the result (only its leading dims of size 1 and the one after them padded)}}
  %0 = tensor.pad %a low[0, %l] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<3x4xf32> to tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @concat_dynamic_offset(%a: tensor<3x?xf32>, %b: tensor<3x2xf32>) -> tensor<3x?xf32> {
  // expected-error @+1 {{'tensor.concat' of an input of dynamic size in dimension 1 (the concatenated one) is not supported here: only the last input's may be dynamic, unless every dimension before the concatenated one has size 1 (then each input is one contiguous range of the result)}}
  %0 = tensor.concat dim(1) %a, %b : (tensor<3x?xf32>, tensor<3x2xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// Element types the runtime does not hold are refused by name.
func.func @splat_i4(%v: i4) -> tensor<4xi32> {
  // expected-error @+1 {{'tensor.splat' on 'tensor<4xi4>' is not supported: only ranked tensors of i1, i8, i16, i32, i64, f16, bf16, f32 or f64 are}}
  %0 = tensor.splat %v : tensor<4xi4>
  %1 = arith.constant dense<0> : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

func.func @bitcast_f8(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tensor.bitcast' on 'tensor<4xf8E4M3FN>' is not supported}}
  %0 = tensor.bitcast %a : tensor<4xi8> to tensor<4xf8E4M3FN>
  return %a : tensor<4xi8>
}
