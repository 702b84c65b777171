module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @Triple.function(tensor<?x?x3xi32>, tensor<?x?x3xi32>) -> (tensor<?x?x3xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func private @tensor0() -> (tensor<?x?x3xi32>) {
    %d76 = arith.constant 0 : index
    %d78 = arith.constant 0 : index
    %e74 = tensor.empty(%d76, %d78) : tensor<?x?x3xi32>
    %v80 = arith.constant 0 : i32
    %t81 = linalg.fill ins(%v80 : i32) outs(%e74 : tensor<?x?x3xi32>) -> tensor<?x?x3xi32>
    %t82 = call @Triple.function(%t81, %t81) : (tensor<?x?x3xi32>, tensor<?x?x3xi32>) -> tensor<?x?x3xi32>
    return %t82 : tensor<?x?x3xi32>
  }
  func.func private @tensor1(%arg109: tensor<?x?x3xi8>) -> (tensor<?x?x3xi8>, tensor<?x?x3xi8>) {
    %d112 = arith.constant 0 : index
    %d114 = arith.constant 0 : index
    %e129 = tensor.empty(%d112, %d114) : tensor<?x?x3xi8>
    %v134 = arith.constant 0 : i8
    %t135 = linalg.fill ins(%v134 : i8) outs(%e129 : tensor<?x?x3xi8>) -> tensor<?x?x3xi8>
    return %t135, %arg109 : tensor<?x?x3xi8>, tensor<?x?x3xi8>
  }
  func.func private @tensor2() -> (tensor<?x?x3xi32>) {
    %t148 = call @tensor0() {stream.affinity = #hal.device.affinity<@a>} : () -> (tensor<?x?x3xi32>)
    return %t148 : tensor<?x?x3xi32>
  }
  func.func @main(%arg155: tensor<?x?x3xf64>, %arg157: tensor<4x?xi32>, %arg159: tensor<4x?xi32>, %arg160: tensor<?xi32>, %arg162: tensor<?xi32>) -> (tensor<?x?x3xi32>) attributes {stream.affinity = #hal.device.affinity<@a>} {
    %t158 = arith.addi %arg157, %arg159 : tensor<4x?xi32>
    %t161 = arith.maxsi %arg160, %arg162 : tensor<?xi32>
    %t163 = arith.subi %t161, %arg160 : tensor<?xi32>
    %e164 = arith.constant dense<0> : tensor<4xi32>
    %c165 = arith.constant 0 : i32
    %t166 = linalg.fill ins(%c165 : i32) outs(%e164 : tensor<4xi32>) -> tensor<4xi32>
    %c167 = arith.constant dense<0> : tensor<4xi32>
    %t168 = arith.maxsi %c167, %c167 {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    %t169 = arith.xori %t168, %c167 : tensor<4xi32>
    %t170 = arith.mulf %arg155, %arg155 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x3xf64>
    %t171 = arith.mulf %arg155, %t170 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x3xf64>
    %d173 = arith.constant 0 : index
    %d175 = arith.constant 0 : index
    %e176 = tensor.empty(%d175) : tensor<1x?x2xi64>
    %c177 = arith.constant 0 : i64
    %t178 = linalg.fill ins(%c177 : i64) outs(%e176 : tensor<1x?x2xi64>) -> tensor<1x?x2xi64>
    %e179 = tensor.empty(%d173) : tensor<1x2x?xi64>
    %c180 = arith.constant 0 : i64
    %t181 = linalg.fill ins(%c180 : i64) outs(%e179 : tensor<1x2x?xi64>) -> tensor<1x2x?xi64>
    %e182 = tensor.empty(%d175, %d173) : tensor<1x?x?xi64>
    %v187 = arith.constant 0 : i64
    %t188 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v187 : i64) outs(%e182 : tensor<1x?x?xi64>) -> tensor<1x?x?xi64>
    %c189 = linalg.batch_matmul ins(%t178, %t181 : tensor<1x?x2xi64>, tensor<1x2x?xi64>) outs(%t188 : tensor<1x?x?xi64>) -> tensor<1x?x?xi64>
    %e190 = tensor.empty(%d173, %d175) : tensor<?x?x3xi32>
    %v198 = arith.constant 0 : i32
    %t199 = linalg.fill ins(%v198 : i32) outs(%e190 : tensor<?x?x3xi32>) -> tensor<?x?x3xi32>
    %e200 = tensor.empty(%d173, %d175) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x3xi8>
    %v206 = arith.constant 0 : i8
    %t207 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v206 : i8) outs(%e200 : tensor<?x?x3xi8>) -> tensor<?x?x3xi8>
    %t208, %t209 = call @tensor1(%t207) {stream.affinity = #hal.device.affinity<@a>} : (tensor<?x?x3xi8>) -> (tensor<?x?x3xi8>, tensor<?x?x3xi8>)
    %e210 = tensor.empty(%d175) : tensor<2x?xf64>
    %c211 = arith.constant -0.5 : f64
    %t212 = linalg.fill ins(%c211 : f64) outs(%e210 : tensor<2x?xf64>) -> tensor<2x?xf64>
    %t213 = math.tanh %t212 {stream.affinity = #hal.device.affinity<@a>} : tensor<2x?xf64>
    %e215 = tensor.empty(%d175) : tensor<2x?xf64>
    %c216 = arith.constant 3.0 : f64
    %t217 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%c216 : f64) outs(%e215 : tensor<2x?xf64>) -> tensor<2x?xf64>
    %t214 = arith.subf %t213, %t217 : tensor<2x?xf64>
    %e218 = tensor.empty(%d175) : tensor<2x?xf64>
    %c219 = arith.constant -1.0 : f64
    %t220 = linalg.fill ins(%c219 : f64) outs(%e218 : tensor<2x?xf64>) -> tensor<2x?xf64>
    %g237 = linalg.generic{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t214 : tensor<2x?xf64>) outs(%t220 : tensor<2x?xf64>) {
    ^bb0(%in221: f64, %acc222: f64):
      %b236 = arith.truncf %in221 : f64 to f32
      %b235 = arith.extf %b236 : f32 to f64
      linalg.yield %b235 : f64
    } -> tensor<2x?xf64>
    %t238 = arith.minimumf %g237, %g237 : tensor<2x?xf64>
    %t240 = math.absf %t238 : tensor<2x?xf64>
    %t254 = call @tensor2() : () -> (tensor<?x?x3xi32>)
    return %t254 : tensor<?x?x3xi32>
  }
}
