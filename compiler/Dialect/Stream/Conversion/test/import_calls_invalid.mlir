// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --verify-diagnostics

// expected-error @+1 {{result 0 of 'f' is tied to operand 2, but it takes 2 operands}}
func.func private @f(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 2 : index})

// -----

// expected-error @+1 {{result 0 of 'f' has type 'tensor<4xi32>' but is tied to operand 0 of type 'tensor<4xf32>'}}
func.func private @f(tensor<4xf32>) -> (tensor<4xi32> {iree.abi.tied = 0 : index})

// -----

// expected-error @+1 {{operand 0 of 'f' is tied to more than one result}}
func.func private @f(tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 0 : index}, tensor<4xi32> {iree.abi.tied = 0 : index})

// -----

// expected-error @+1 {{'f' uses ABI model 'sync'; only 'coarse-fences' is supported}}
func.func private @f(tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.model = "sync"}

// -----

// A new result of dynamic shape is fine alone (import_calls.mlir), not next
// to a tied result.
// expected-error @+1 {{result 1 of 'f' is a new tensor of dynamic shape 'tensor<?xi32>'; a function with one cannot also have tied results (iree.abi.tied) yet}}
func.func private @f(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}, tensor<?xi32>)

// -----

// Ties on a function with a body are checked like those of a declaration.
// expected-error @+1 {{result 0 of 'g' is tied to operand 1, but it takes 1 operands}}
func.func @g(%a: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  return %a : tensor<4xi32>
}

// -----

// Only the host may call a function that writes a result into an argument:
// a caller in the module would lend a buffer it still owns.
func.func @h(%a: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 0 : index}) {
  return %a : tensor<4xi32>
}
func.func @caller(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{calls 'h', which writes a result into its argument (iree.abi.tied); only the host may call such a function}}
  %0 = call @h(%a) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A tie must be an operand index, not any other attribute.
// expected-error @+1 {{result 0 of 'f' has iree.abi.tied = "1"; it must be an integer, the index of the operand the result is tied to}}
func.func private @f(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = "1"})

// -----

// expected-error @+1 {{result 0 of 'f' has iree.abi.tied = 1.000000e+00 : f32; it must be an integer, the index of the operand the result is tied to}}
func.func private @f(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1.0 : f32})
