// RUN: ferry-opt --split-input-file --convert-input-to-stream --verify-diagnostics %s

// Offsets are static: a low padding that is a run-time value is refused.
func.func @pad_dynamic_low(%a: tensor<4xf32>, %l: index) -> tensor<?xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.pad' with dynamic low padding is not supported: only the high padding may be dynamic}}
  %0 = tensor.pad %a low[%l] high[1] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @pad_computed(%a: tensor<4xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'tensor.pad' whose padding value is computed per element is not supported: only a constant or a value defined outside it}}
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @concat_dynamic_offset(%a: tensor<3x?xf32>, %b: tensor<3x2xf32>) -> tensor<3x?xf32> {
  // expected-error @+1 {{'tensor.concat' of an input of dynamic size in dimension 1 (the concatenated one) is not supported: only the last input's may be dynamic (or any, concatenating dimension 0)}}
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
