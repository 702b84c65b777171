module {
  func.func private @Double.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
  func.func private @Triple.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func private @tensor0(%arg1: tensor<?x?xi32>, %arg2: tensor<?x?xi16>) -> (tensor<?x?xi32>, tensor<?x?xi16>, tensor<?x?xi16>) {
    %c3 = arith.constant 0 : index
    %d4 = tensor.dim %arg1, %c3 : tensor<?x?xi32>
    %c5 = arith.constant 1 : index
    %d6 = tensor.dim %arg1, %c5 : tensor<?x?xi32>
    %e7 = tensor.empty(%d6, %d4) : tensor<?x?xi32>
    %c8 = arith.constant -2147483647 : i32
    %t9 = linalg.fill ins(%c8 : i32) outs(%e7 : tensor<?x?xi32>) -> tensor<?x?xi32>
    %e10 = tensor.empty(%d4) : tensor<?xi32>
    %c11 = arith.constant -1495679353 : i32
    %v12 = arith.andi %c11, %c11 : i32
    %t13 = linalg.fill ins(%v12 : i32) outs(%e10 : tensor<?xi32>) -> tensor<?xi32>
    %g23 = linalg.generic{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg1, %t9, %t13 : tensor<?x?xi32>, tensor<?x?xi32>, tensor<?xi32>) outs(%arg1 : tensor<?x?xi32>) {
    ^bb0(%in14: i32, %in15: i32, %in16: i32, %acc17: i32):
      %k19 = arith.constant 31 : i32
      %b20 = arith.andi %in16, %k19 : i32
      %b18 = arith.shrui %in15, %b20 : i32
      %b21 = arith.maxsi %in16, %in16 : i32
      %b22 = arith.muli %b21, %acc17 : i32
      linalg.yield %b22 : i32
    } -> tensor<?x?xi32>
    %t24 = arith.muli %arg1, %arg1 : tensor<?x?xi32>
    %t25 = arith.maxsi %g23, %arg1 : tensor<?x?xi32>
    %t26 = arith.subi %arg2, %arg2 : tensor<?x?xi16>
    %t27 = arith.subi %t26, %t26 : tensor<?x?xi16>
    %e28 = tensor.empty(%d4, %d6) : tensor<?x?xi16>
    %c29 = arith.constant 5365 : i16
    %t30 = linalg.fill ins(%c29 : i16) outs(%e28 : tensor<?x?xi16>) -> tensor<?x?xi16>
    %e31 = tensor.empty(%d4, %d6) : tensor<?x?xi16>
    %c32 = arith.constant 32766 : i16
    %t33 = linalg.fill ins(%c32 : i16) outs(%e31 : tensor<?x?xi16>) -> tensor<?x?xi16>
    %c34 = arith.constant 0 : index
    %c35 = arith.constant 0 : index
    %x36 = tensor.extract %t33[%c34, %c35] : tensor<?x?xi16>
    return %t25, %t33, %t27 : tensor<?x?xi32>, tensor<?x?xi16>, tensor<?x?xi16>
  }
  func.func @main(%arg37: tensor<?x?xi8>, %arg38: tensor<?x?xi32>, %arg39: tensor<?x?xf64>, %arg40: f64) -> (tensor<?x?xi64>, tensor<?x?xi32>, tensor<?x?xi32>) {
    %c42 = arith.constant 0 : index
    %d43 = tensor.dim %arg37, %c42 : tensor<?x?xi8>
    %c44 = arith.constant 1 : index
    %d45 = tensor.dim %arg37, %c44 : tensor<?x?xi8>
    %e41 = tensor.empty(%d43, %d45) : tensor<?x?xi16>
    %c46 = arith.constant -19708 : i16
    %t47 = linalg.fill ins(%c46 : i16) outs(%e41 : tensor<?x?xi16>) -> tensor<?x?xi16>
    %t48, %t49, %t50 = call @tensor0(%arg38, %t47) : (tensor<?x?xi32>, tensor<?x?xi16>) -> (tensor<?x?xi32>, tensor<?x?xi16>, tensor<?x?xi16>)
    %e51 = tensor.empty(%d43, %d45) : tensor<?x?xi32>
    %t52 = call @Double.function(%arg38, %e51) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
    %t53 = call @Double.function(%t52, %t52) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
    %e54 = tensor.empty(%d43, %d45) : tensor<?x?xf64>
    %t55 = linalg.fill ins(%arg40 : f64) outs(%e54 : tensor<?x?xf64>) -> tensor<?x?xf64>
    %t56 = arith.subi %t52, %t52 : tensor<?x?xi32>
    %e57 = tensor.empty(%d43, %d45) : tensor<?x?xi64>
    %c58 = arith.constant 0 : i64
    %t59 = linalg.fill ins(%c58 : i64) outs(%e57 : tensor<?x?xi64>) -> tensor<?x?xi64>
    %e60 = tensor.empty(%d43, %d45) : tensor<?x?xi32>
    %t61 = call @Triple.function(%arg38, %e60) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
    return %t59, %t56, %t53 : tensor<?x?xi64>, tensor<?x?xi32>, tensor<?x?xi32>
  }
}
