// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --verify-diagnostics

// expected-error @+1 {{argument 0 of 'f' has iree.abi.consume = true; it must be a unit attribute (no value)}}
func.func @f(%x: tensor<4xi32> {iree.abi.consume = true}) -> tensor<4xi32> {
  return %x : tensor<4xi32>
}

// -----

// expected-error @+1 {{argument 1 of 'f' is both consumed (iree.abi.consume) and tied to a result (iree.abi.tied); a tied argument stays the caller's}}
func.func @f(%x: tensor<4xi32>, %acc: tensor<4xi32> {iree.abi.consume}) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// expected-error @+1 {{'ext.f' is external and has an argument with iree.abi.consume; only functions of the module may consume arguments}}
func.func private @ext.f(tensor<4xi32> {iree.abi.consume}) -> tensor<4xi32>

// -----

func.func private @g(%x: tensor<4xi32> {iree.abi.consume}) -> tensor<4xi32> {
  return %x : tensor<4xi32>
}
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{calls 'g', which takes over its caller's ownership of an argument (iree.abi.consume); only the host may call such a function}}
  %0 = call @g(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
