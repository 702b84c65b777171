// Input programs at the edges of what import supports: tensor control flow,
// rank 0 and empty tensors, unranked tensors, declarations only, an empty
// module and a nested one.

// Tensors through an scf.if.
func.func @main(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %r = scf.if %c -> tensor<4xi32> {
    %0 = arith.addi %x, %x : tensor<4xi32>
    scf.yield %0 : tensor<4xi32>
  } else {
    scf.yield %x : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

// Tensors through blocks.
func.func @main(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  cf.cond_br %c, ^a, ^b(%x : tensor<4xi32>)
^a:
  %0 = arith.addi %x, %x : tensor<4xi32>
  cf.br ^b(%0 : tensor<4xi32>)
^b(%r: tensor<4xi32>):
  return %r : tensor<4xi32>
}

// -----

// Rank 0 and an empty tensor.
func.func @main(%x: tensor<i32>, %y: tensor<0xf32>) -> (tensor<i32>, tensor<0xf32>) {
  %0 = arith.addi %x, %x : tensor<i32>
  %1 = arith.addf %y, %y : tensor<0xf32>
  return %0, %1 : tensor<i32>, tensor<0xf32>
}

// -----

// Unranked tensors.
func.func @main(%x: tensor<*xi32>) -> tensor<*xi32> {
  %0 = arith.addi %x, %x : tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

// Declarations only.
func.func private @ext(tensor<?xi32>) -> tensor<?xi32>
func.func private @ext2(i32) -> i32

// -----

// An empty module.
module {
}

// -----

// A nested module.
module {
  module @inner {
    func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
      %0 = arith.addi %x, %x : tensor<4xi32>
      return %0 : tensor<4xi32>
    }
  }
  func.func @outer(%x: tensor<4xi32>) -> tensor<4xi32> {
    %0 = arith.muli %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
