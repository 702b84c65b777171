module {
  func.func private @scalar1() -> (i8) {
    %z0 = arith.constant 0 : i8
    return %z0 : i8
  }
  func.func private @tensor2() -> () {
    %d146 = arith.constant 0 : index
    %e164 = tensor.empty(%d146, %d146) : tensor<?x?xi8>
    %c165 = arith.constant 0 : i8
    %t166 = linalg.fill ins(%c165 : i8) outs(%e164 : tensor<?x?xi8>) -> tensor<?x?xi8>
    %t167 = arith.maxsi %t166, %t166 : tensor<?x?xi8>
    %e169 = tensor.empty(%d146, %d146) : tensor<?x?xi8>
    %r172 = arith.constant 0 : i8
    %t173 = linalg.fill ins(%r172 : i8) outs(%e169 : tensor<?x?xi8>) -> tensor<?x?xi8>
    %t168 = arith.muli %t167, %t173 : tensor<?x?xi8>
    %e174 = tensor.empty(%d146) : tensor<?x2xi8>
    %r177 = arith.constant 0 : i8
    %t178 = linalg.fill ins(%r172 : i8) outs(%e174 : tensor<?x2xi8>) -> tensor<?x2xi8>
    %e180 = tensor.empty(%d146) : tensor<?x2xi8>
    %r185 = call @scalar1() : () -> (i8)
    %t186 = linalg.fill ins(%r177 : i8) outs(%e180 : tensor<?x2xi8>) -> tensor<?x2xi8>
    %t179 = arith.xori %t178, %t186 : tensor<?x2xi8>
    %e187 = tensor.empty(%d146) : tensor<?x2xi8>
    %t188 = linalg.fill ins(%r185 : i8) outs(%e187 : tensor<?x2xi8>) -> tensor<?x2xi8>
    %c189 = linalg.matmul ins(%t168, %t179 : tensor<?x?xi8>, tensor<?x2xi8>) outs(%t188 : tensor<?x2xi8>) -> tensor<?x2xi8>
    %t194 = arith.constant dense<0> : tensor<2xi8>
    %e195 = tensor.empty(%d146) : tensor<?x2xi8>
    %b196 = linalg.broadcast ins(%t194 : tensor<2xi8>) outs(%e195 : tensor<?x2xi8>) dimensions = [0]
    %t190 = arith.muli %c189, %b196 : tensor<?x2xi8>
    return
  }
  func.func @main() -> (tensor<?x2x4xf32>) {
    %d221 = arith.constant 0 : index
    %e245 = tensor.empty(%d221) : tensor<?x2x4xf32>
    %c246 = arith.constant -2.25 : f32
    %t247 = linalg.fill ins(%c246 : f32) outs(%e245 : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
    return %t247 : tensor<?x2x4xf32>
  }
}
