module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @Double.function(tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> (tensor<?x?x2xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func private @Triple.function(tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> (tensor<?x?x2xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
  func.func private @scalar0(%arg1: i8) -> i64 {
    %c2 = arith.constant 0 : i8
    %cmp3 = arith.cmpi sle, %arg1, %c2 : i8
    cf.cond_br %cmp3, ^bb4, ^bb5
  ^bb4:
    %c6 = arith.constant 0 : i64
    %v7 = arith.extui %arg1 : i8 to i64
    %cmp8 = arith.cmpi ule, %c6, %v7 : i64
    %v9 = arith.extui %arg1 : i8 to i16
    %v10 = arith.extui %arg1 : i8 to i16
    %v11 = arith.select %cmp8, %v9, %v10 : i16
    %v12 = arith.extui %arg1 : i8 to i64
    %c13 = arith.constant 5610242361865268591 : i64
    %v14 = arith.minui %v12, %c13 : i64
    return %v14 : i64
  ^bb5:
    %c15 = arith.constant 1 : i8
    %v16 = arith.subi %arg1, %c15 : i8
    %r17 = call @scalar0(%v16) : (i8) -> i64
    %v18 = arith.trunci %arg1 : i8 to i1
    %c19 = arith.constant 30915 : i16
    %v20 = arith.extsi %arg1 : i8 to i16
    %c21 = arith.constant 15 : i16
    %v22 = arith.andi %v20, %c21 : i16
    %v23 = arith.shli %c19, %v22 : i16
    return %r17 : i64
  }
  func.func private @tensor0(%arg24: tensor<?x?x2xi32>) -> (tensor<?x?x2xi32>, tensor<?x?x2xi32>, tensor<?x?x2xi32> {stream.affinity = #hal.device.affinity<@b>}) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %t25 = arith.muli %arg24, %arg24 : tensor<?x?x2xi32>
    %c27 = arith.constant 0 : index
    %d28 = tensor.dim %arg24, %c27 : tensor<?x?x2xi32>
    %c29 = arith.constant 1 : index
    %d30 = tensor.dim %arg24, %c29 : tensor<?x?x2xi32>
    %e26 = tensor.empty(%d28, %d30) : tensor<?x?x2xi32>
    %t31 = call @Double.function(%arg24, %e26) : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %t32 = arith.minui %t25, %t31 {stream.affinity = #hal.device.affinity<@a>} : tensor<?x?x2xi32>
    %t33 = call @Double.function(%t25, %t25) : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %t34 = arith.addi %arg24, %arg24 : tensor<?x?x2xi32>
    %e35 = tensor.empty(%d28, %d30) : tensor<?x?xi16>
    %c36 = arith.constant 10 : i8
    %c37 = arith.constant 7 : i8
    %v38 = arith.andi %c36, %c37 : i8
    %r39 = call @scalar0(%v38) : (i8) -> i64
    %v40 = arith.trunci %r39 : i64 to i16
    %t41 = linalg.fill ins(%v40 : i16) outs(%e35 : tensor<?x?xi16>) -> tensor<?x?xi16>
    %t42 = arith.subi %t41, %t41 {stream.affinity = #hal.device.affinity<@a>} : tensor<?x?xi16>
    %e44 = tensor.empty(%d30) : tensor<?xi16>
    %c45 = arith.constant 126 : i8
    %c46 = arith.constant 7 : i8
    %v47 = arith.andi %c45, %c46 : i8
    %r48 = call @scalar0(%v47) : (i8) -> i64
    %v49 = arith.trunci %r48 : i64 to i16
    %t50 = linalg.fill ins(%v49 : i16) outs(%e44 : tensor<?xi16>) -> tensor<?xi16>
    %e51 = tensor.empty(%d28, %d30) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?xi16>
    %b52 = linalg.broadcast ins(%t50 : tensor<?xi16>) outs(%e51 : tensor<?x?xi16>) dimensions = [0]
    %t43 = arith.minsi %t42, %b52 : tensor<?x?xi16>
    %e53 = tensor.empty(%d30) : tensor<?x1xi16>
    %c54 = arith.constant -10 : i8
    %c55 = arith.constant 7 : i8
    %v56 = arith.andi %c54, %c55 : i8
    %r57 = call @scalar0(%v56) : (i8) -> i64
    %v58 = arith.trunci %r39 : i64 to i16
    %t59 = linalg.fill ins(%v58 : i16) outs(%e53 : tensor<?x1xi16>) -> tensor<?x1xi16>
    %e61 = tensor.empty() : tensor<1xi16>
    %v62 = arith.trunci %r57 : i64 to i8
    %c63 = arith.constant 7 : i8
    %v64 = arith.andi %v62, %c63 : i8
    %r65 = call @scalar0(%v64) : (i8) -> i64
    %c66 = arith.constant 0 : i16
    %v67 = arith.trunci %r57 : i64 to i16
    %c68 = arith.constant 16383 : i16
    %c69 = arith.constant 1 : i16
    %v70 = arith.andi %c66, %c68 : i16
    %v71 = arith.ori %v70, %c69 : i16
    %v72 = arith.ceildivsi %v67, %v71 : i16
    %t73 = linalg.fill ins(%v72 : i16) outs(%e61 : tensor<1xi16>) -> tensor<1xi16>
    %e74 = tensor.empty(%d30) : tensor<?x1xi16>
    %b75 = linalg.broadcast ins(%t73 : tensor<1xi16>) outs(%e74 : tensor<?x1xi16>) dimensions = [0]
    %t60 = arith.maxsi %t59, %b75 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x1xi16>
    %e77 = tensor.empty() : tensor<1xi16>
    %c78 = arith.constant -127 : i8
    %c79 = arith.constant 7 : i8
    %v80 = arith.andi %c78, %c79 : i8
    %r81 = call @scalar0(%v80) : (i8) -> i64
    %v82 = arith.trunci %r65 : i64 to i16
    %c83 = arith.constant 7 : i16
    %v84 = arith.trunci %r39 : i64 to i16
    %c85 = arith.constant 16383 : i16
    %c86 = arith.constant 1 : i16
    %v87 = arith.andi %v84, %c85 : i16
    %v88 = arith.ori %v87, %c86 : i16
    %v89 = arith.ceildivsi %c83, %v88 : i16
    %t90 = linalg.fill ins(%v89 : i16) outs(%e77 : tensor<1xi16>) -> tensor<1xi16>
    %e91 = tensor.empty(%d30) : tensor<?x1xi16>
    %b92 = linalg.broadcast ins(%t90 : tensor<1xi16>) outs(%e91 : tensor<?x1xi16>) dimensions = [0]
    %t76 = arith.andi %t60, %b92 : tensor<?x1xi16>
    %e93 = tensor.empty(%d28) {stream.affinity = #hal.device.affinity<@a>} : tensor<?x1xi16>
    %v94 = arith.trunci %r65 : i64 to i8
    %c95 = arith.constant 7 : i8
    %v96 = arith.andi %v94, %c95 : i8
    %r97 = call @scalar0(%v96) : (i8) -> i64
    %c98 = arith.constant -10 : i16
    %c99 = arith.constant 16383 : i16
    %c100 = arith.constant 1 : i16
    %v101 = arith.andi %c98, %c99 : i16
    %v102 = arith.ori %v101, %c100 : i16
    %v103 = arith.remui %c98, %v102 : i16
    %t104 = linalg.fill ins(%v103 : i16) outs(%e93 : tensor<?x1xi16>) -> tensor<?x1xi16>
    %c105 = linalg.matmul ins(%t43, %t76 : tensor<?x?xi16>, tensor<?x1xi16>) outs(%t104 : tensor<?x1xi16>) -> tensor<?x1xi16>
    %e107 = tensor.empty(%d28) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x1xi16>
    %b108 = linalg.broadcast ins(%t73 : tensor<1xi16>) outs(%e107 : tensor<?x1xi16>) dimensions = [0]
    %t106 = arith.addi %c105, %b108 {stream.affinity = #hal.device.affinity<@a>} : tensor<?x1xi16>
    %t109 = arith.minsi %t106, %c105 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x1xi16>
    %c110 = arith.constant 0 : index
    %c111 = arith.constant 0 : index
    %c112 = arith.constant 1 : index
    %x113 = tensor.extract %t34[%c110, %c111, %c112] {stream.affinity = #hal.device.affinity<@a>} : tensor<?x?x2xi32>
    %t114 = arith.muli %t32, %t33 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x2xi32>
    return %t34, %t34, %t34 : tensor<?x?x2xi32>, tensor<?x?x2xi32>, tensor<?x?x2xi32>
  }
  func.func private @tensor1(%arg115: tensor<?x?x2xi32> {stream.affinity = #hal.device.affinity<@b>}) -> (tensor<?x?x2xi32>) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %c117 = arith.constant 0 : index
    %d118 = tensor.dim %arg115, %c117 : tensor<?x?x2xi32>
    %c119 = arith.constant 1 : index
    %d120 = tensor.dim %arg115, %c119 : tensor<?x?x2xi32>
    %e116 = tensor.empty(%d118, %d120) : tensor<?x?x2xf32>
    %c121 = arith.constant -1.25 : f32
    %t122 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%c121 : f32) outs(%e116 : tensor<?x?x2xf32>) -> tensor<?x?x2xf32>
    %e123 = tensor.empty(%d120) {stream.affinity = #hal.device.affinity<@a>} : tensor<2x?xi32>
    %c124 = arith.constant -5 : i8
    %c125 = arith.constant 7 : i8
    %v126 = arith.andi %c124, %c125 : i8
    %r127 = call @scalar0(%v126) : (i8) -> i64
    %v128 = arith.trunci %r127 : i64 to i32
    %t129 = linalg.fill ins(%v128 : i32) outs(%e123 : tensor<2x?xi32>) -> tensor<2x?xi32>
    %e130 = tensor.empty(%d120) : tensor<?x2xi32>
    %v131 = arith.trunci %r127 : i64 to i8
    %c132 = arith.constant 7 : i8
    %v133 = arith.andi %v131, %c132 : i8
    %r134 = call @scalar0(%v133) : (i8) -> i64
    %c135 = arith.constant 5 : i32
    %v136 = arith.addi %c135, %c135 : i32
    %t137 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v136 : i32) outs(%e130 : tensor<?x2xi32>) -> tensor<?x2xi32>
    %g148 = linalg.generic{indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg115, %t129 : tensor<?x?x2xi32>, tensor<2x?xi32>) outs(%t137 : tensor<?x2xi32>) {
    ^bb0(%in138: i32, %in139: i32, %acc140: i32):
      %cmp142 = arith.cmpi uge, %in139, %in138 : i32
      %b141 = arith.select %cmp142, %in138, %in139 : i32
      %k144 = arith.constant 31 : i32
      %b145 = arith.andi %in139, %k144 : i32
      %b143 = arith.shrsi %b141, %b145 : i32
      %b146 = math.absi %in139 : i32
      %b147 = arith.muli %acc140, %b146 : i32
      linalg.yield %b147 : i32
    } -> tensor<?x2xi32>
    %e149 = tensor.empty(%d120) {stream.affinity = #hal.device.affinity<@a>} : tensor<?x1xi32>
    %v150 = arith.trunci %r127 : i64 to i32
    %v151 = arith.trunci %r134 : i64 to i32
    %v152 = arith.addi %v150, %v151 : i32
    %t153 = linalg.fill ins(%v152 : i32) outs(%e149 : tensor<?x1xi32>) -> tensor<?x1xi32>
    %e154 = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<2x1xi32>
    %v155 = arith.trunci %r127 : i64 to i8
    %c156 = arith.constant 7 : i8
    %v157 = arith.andi %v155, %c156 : i8
    %r158 = call @scalar0(%v157) : (i8) -> i64
    %v159 = arith.trunci %r158 : i64 to i32
    %t160 = linalg.fill ins(%v159 : i32) outs(%e154 : tensor<2x1xi32>) -> tensor<2x1xi32>
    %c161 = linalg.matmul {stream.affinity = #hal.device.affinity<@b>} ins(%t129, %t153 : tensor<2x?xi32>, tensor<?x1xi32>) outs(%t160 : tensor<2x1xi32>) -> tensor<2x1xi32>
    %t162 = arith.addi %arg115, %arg115 {stream.affinity = #hal.device.affinity<@a>} : tensor<?x?x2xi32>
    return %t162 : tensor<?x?x2xi32>
  }
  func.func private @tensor2(%arg163: tensor<?x?x2xi16>, %arg164: tensor<?x?x2xi16> {stream.affinity = #hal.device.affinity<@a>}, %arg165: tensor<?x?x2xi32>) -> (tensor<?x?x2xf64>) {
    %c167 = arith.constant 0 : index
    %d168 = tensor.dim %arg163, %c167 : tensor<?x?x2xi16>
    %c169 = arith.constant 1 : index
    %d170 = tensor.dim %arg163, %c169 : tensor<?x?x2xi16>
    %e166 = tensor.empty(%d168, %d170) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x2xf64>
    %c171 = arith.constant 3.0 : f64
    %t172 = linalg.fill ins(%c171 : f64) outs(%e166 : tensor<?x?x2xf64>) -> tensor<?x?x2xf64>
    %c173 = arith.constant 0 : index
    %c174 = arith.constant 0 : index
    %c175 = arith.constant 0 : index
    %x176 = tensor.extract %arg165[%c173, %c174, %c175] : tensor<?x?x2xi32>
    %c177 = arith.constant 26 : i8
    %c178 = arith.constant 7 : i8
    %v179 = arith.andi %c177, %c178 : i8
    %r180 = call @scalar0(%v179) : (i8) -> i64
    %v181 = arith.trunci %x176 : i32 to i16
    %t182 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v181 : i16) outs(%arg164 : tensor<?x?x2xi16>) -> tensor<?x?x2xi16>
    %t183 = arith.addf %t172, %t172 : tensor<?x?x2xf64>
    return %t183 : tensor<?x?x2xf64>
  }
  func.func @main(%arg184: tensor<?x?x2xf32>, %arg237: tensor<?x2x?xi32>, %arg249: tensor<2xi32>, %arg251: tensor<2xi32>, %arg262: tensor<4xi32>, %arg185: f32) -> (tensor<?x?x2xi32>, tensor<?x?x2xi32>, tensor<?x?x2xf64>) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %c187 = arith.constant 0 : index
    %d188 = tensor.dim %arg184, %c187 : tensor<?x?x2xf32>
    %c189 = arith.constant 1 : index
    %d190 = tensor.dim %arg184, %c189 : tensor<?x?x2xf32>
    %e186 = tensor.empty(%d188, %d190) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x2xi32>
    %c191 = arith.constant 91 : i8
    %c192 = arith.constant 7 : i8
    %v193 = arith.andi %c191, %c192 : i8
    %r194 = call @scalar0(%v193) : (i8) -> i64
    %v195 = arith.trunci %r194 : i64 to i32
    %c196 = arith.constant 1073741823 : i32
    %c197 = arith.constant 1 : i32
    %v198 = arith.andi %v195, %c196 : i32
    %v199 = arith.ori %v198, %c197 : i32
    %v200 = arith.divsi %v195, %v199 : i32
    %t201 = linalg.fill ins(%v200 : i32) outs(%e186 : tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %e202 = tensor.empty(%d188, %d190) {stream.affinity = #hal.device.affinity<@a>} : tensor<?x?x2xi32>
    %v203 = arith.trunci %r194 : i64 to i8
    %c204 = arith.constant 7 : i8
    %v205 = arith.andi %v203, %c204 : i8
    %r206 = call @scalar0(%v205) : (i8) -> i64
    %v207 = arith.trunci %r194 : i64 to i32
    %t208 = linalg.fill ins(%v207 : i32) outs(%e202 : tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %t209 = call @Double.function(%t201, %t208) {stream.affinity = #hal.device.affinity<@b>} : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %t210 = arith.muli %t201, %t201 {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x2xi32>
    %e211 = tensor.empty(%d188, %d190) : tensor<?x?x2xi32>
    %t212 = call @Double.function(%t208, %e211) : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %t213 = arith.subi %t212, %t209 : tensor<?x?x2xi32>
    %e214 = tensor.empty(%d190) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x2x2xi32>
    %v215 = arith.trunci %r206 : i64 to i32
    %t216 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v215 : i32) outs(%e214 : tensor<?x2x2xi32>) -> tensor<?x2x2xi32>
    %g226 = linalg.generic{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t212 : tensor<?x?x2xi32>) outs(%t216 : tensor<?x2x2xi32>) {
    ^bb0(%in217: i32, %acc218: i32):
      %b219 = arith.andi %in217, %in217 : i32
      %b221 = arith.extui %b219 : i32 to i64
      %b222 = arith.extsi %b219 : i32 to i64
      %b223 = arith.muli %b221, %b222 : i64
      %b220 = arith.trunci %b223 : i64 to i32
      %b224 = arith.ori %b219, %b219 : i32
      %b225 = arith.addi %acc218, %b224 : i32
      linalg.yield %b225 : i32
    } -> tensor<?x2x2xi32>
    %e227 = tensor.empty(%d188, %d190) : tensor<?x?x2xi16>
    %v228 = arith.trunci %r194 : i64 to i8
    %c229 = arith.constant 7 : i8
    %v230 = arith.andi %v228, %c229 : i8
    %r231 = call @scalar0(%v230) : (i8) -> i64
    %v232 = arith.trunci %r231 : i64 to i16
    %t233 = linalg.fill ins(%v232 : i16) outs(%e227 : tensor<?x?x2xi16>) -> tensor<?x?x2xi16>
    %t234 = call @tensor2(%t233, %t233, %t213) : (tensor<?x?x2xi16>, tensor<?x?x2xi16>, tensor<?x?x2xi32>) -> (tensor<?x?x2xf64>)
    %e235 = tensor.empty(%d188, %d190) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x?x2xi32>
    %t236 = call @Triple.function(%t210, %e235) {stream.affinity = #hal.device.affinity<@a>} : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %e238 = tensor.empty(%d190, %d190) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x2x?xi32>
    %v239 = arith.trunci %r231 : i64 to i8
    %c240 = arith.constant 7 : i8
    %v241 = arith.andi %v239, %c240 : i8
    %r242 = call @scalar0(%v241) : (i8) -> i64
    %v243 = arith.trunci %r206 : i64 to i32
    %t244 = linalg.fill ins(%v243 : i32) outs(%e238 : tensor<?x2x?xi32>) -> tensor<?x2x?xi32>
    %c245 = linalg.batch_matmul {stream.affinity = #hal.device.affinity<@b>} ins(%g226, %arg237 : tensor<?x2x2xi32>, tensor<?x2x?xi32>) outs(%t244 : tensor<?x2x?xi32>) -> tensor<?x2x?xi32>
    %e246 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4x2xi32>
    %v247 = arith.trunci %r194 : i64 to i32
    %t248 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v247 : i32) outs(%e246 : tensor<4x2xi32>) -> tensor<4x2xi32>
    %t250 = arith.muli %arg249, %arg251 : tensor<2xi32>
    %t252 = arith.subi %t250, %t250 : tensor<2xi32>
    %e253 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    %v254 = arith.trunci %r194 : i64 to i8
    %c255 = arith.constant 7 : i8
    %v256 = arith.andi %v254, %c255 : i8
    %r257 = call @scalar0(%v256) : (i8) -> i64
    %v258 = arith.trunci %r242 : i64 to i32
    %t259 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v258 : i32) outs(%e253 : tensor<4xi32>) -> tensor<4xi32>
    %c260 = linalg.matvec ins(%t248, %t252 : tensor<4x2xi32>, tensor<2xi32>) outs(%t259 : tensor<4xi32>) -> tensor<4xi32>
    %t261 = arith.andi %c260, %arg262 : tensor<4xi32>
    %t263 = call @Triple.function(%t213, %t212) : (tensor<?x?x2xi32>, tensor<?x?x2xi32>) -> tensor<?x?x2xi32>
    %e264 = tensor.empty(%d188) : tensor<1x?x3xi32>
    %v265 = arith.trunci %r242 : i64 to i8
    %c266 = arith.constant 7 : i8
    %v267 = arith.andi %v265, %c266 : i8
    %r268 = call @scalar0(%v267) : (i8) -> i64
    %v269 = arith.trunci %r206 : i64 to i32
    %t270 = linalg.fill ins(%v269 : i32) outs(%e264 : tensor<1x?x3xi32>) -> tensor<1x?x3xi32>
    %e272 = tensor.empty(%d188) {stream.affinity = #hal.device.affinity<@b>} : tensor<?x3xi32>
    %c273 = arith.constant 45 : i8
    %c274 = arith.constant 7 : i8
    %v275 = arith.andi %c273, %c274 : i8
    %r276 = call @scalar0(%v275) : (i8) -> i64
    %c277 = arith.constant 1217966293 : i32
    %v278 = arith.maxsi %c277, %c277 : i32
    %t279 = linalg.fill ins(%v278 : i32) outs(%e272 : tensor<?x3xi32>) -> tensor<?x3xi32>
    %e280 = tensor.empty(%d188) : tensor<1x?x3xi32>
    %b281 = linalg.broadcast ins(%t279 : tensor<?x3xi32>) outs(%e280 : tensor<1x?x3xi32>) dimensions = [0]
    %t271 = arith.subi %t270, %b281 : tensor<1x?x3xi32>
    %e283 = tensor.empty(%d188) : tensor<1x?x3xi32>
    %c284 = arith.constant -1026042867 : i32
    %c285 = arith.constant 7 : i32
    %c286 = arith.constant 1073741823 : i32
    %c287 = arith.constant 1 : i32
    %v288 = arith.andi %c284, %c286 : i32
    %v289 = arith.ori %v288, %c287 : i32
    %v290 = arith.divsi %c285, %v289 : i32
    %t291 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v290 : i32) outs(%e283 : tensor<1x?x3xi32>) -> tensor<1x?x3xi32>
    %t282 = arith.minsi %t271, %t291 : tensor<1x?x3xi32>
    %e292 = tensor.empty(%d190) : tensor<1x3x?xi32>
    %v293 = arith.trunci %r257 : i64 to i8
    %c294 = arith.constant 7 : i8
    %v295 = arith.andi %v293, %c294 : i8
    %r296 = call @scalar0(%v295) : (i8) -> i64
    %v297 = arith.trunci %r257 : i64 to i32
    %t298 = linalg.fill ins(%v297 : i32) outs(%e292 : tensor<1x3x?xi32>) -> tensor<1x3x?xi32>
    %t299 = arith.muli %t298, %t298 {stream.affinity = #hal.device.affinity<@a>} : tensor<1x3x?xi32>
    %t300 = arith.maxsi %t299, %t299 : tensor<1x3x?xi32>
    %e301 = tensor.empty(%d188, %d190) : tensor<1x?x?xi32>
    %v302 = arith.trunci %r276 : i64 to i8
    %c303 = arith.constant 7 : i8
    %v304 = arith.andi %v302, %c303 : i8
    %r305 = call @scalar0(%v304) : (i8) -> i64
    %v306 = arith.trunci %r296 : i64 to i32
    %c307 = arith.constant 31 : i32
    %v308 = arith.andi %v306, %c307 : i32
    %v309 = arith.shrsi %v306, %v308 : i32
    %t310 = linalg.fill ins(%v309 : i32) outs(%e301 : tensor<1x?x?xi32>) -> tensor<1x?x?xi32>
    %c311 = linalg.batch_matmul {stream.affinity = #hal.device.affinity<@a>} ins(%t282, %t300 : tensor<1x?x3xi32>, tensor<1x3x?xi32>) outs(%t310 : tensor<1x?x?xi32>) -> tensor<1x?x?xi32>
    %e313 = tensor.empty(%d188, %d190) : tensor<?x?xi32>
    %v314 = arith.trunci %r231 : i64 to i32
    %v315 = arith.maxui %v314, %v314 : i32
    %t316 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v315 : i32) outs(%e313 : tensor<?x?xi32>) -> tensor<?x?xi32>
    %e317 = tensor.empty(%d188, %d190) {stream.affinity = #hal.device.affinity<@a>} : tensor<1x?x?xi32>
    %b318 = linalg.broadcast ins(%t316 : tensor<?x?xi32>) outs(%e317 : tensor<1x?x?xi32>) dimensions = [0]
    %t312 = arith.andi %c311, %b318 : tensor<1x?x?xi32>
    %t319, %t320, %t321 = call @tensor0(%t263) {stream.affinity = #hal.device.affinity<@b>} : (tensor<?x?x2xi32>) -> (tensor<?x?x2xi32>, tensor<?x?x2xi32>, tensor<?x?x2xi32>)
    %t322 = call @tensor1(%t201) {stream.affinity = #hal.device.affinity<@b>} : (tensor<?x?x2xi32>) -> (tensor<?x?x2xi32>)
    %e323 = tensor.empty(%d188, %d190) : tensor<1x?x?xi32>
    %m330 = linalg.map ins(%t310 : tensor<1x?x?xi32>) outs(%e323 : tensor<1x?x?xi32>) (%in324: i32, %o325: i32) {
      %cmp327 = arith.cmpi slt, %in324, %in324 : i32
      %b326 = arith.select %cmp327, %in324, %in324 : i32
      %b328 = arith.minsi %in324, %b326 : i32
      %b329 = arith.minui %b326, %b328 : i32
      linalg.yield %b329 : i32
    }
    return %t320, %t322, %t234 : tensor<?x?x2xi32>, tensor<?x?x2xi32>, tensor<?x?x2xf64>
  }
}
