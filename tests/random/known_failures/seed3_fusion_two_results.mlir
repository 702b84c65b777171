module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @Double.function(tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func private @Triple.function(tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
  func.func private @scalar0(%arg1: i32, %arg2: i8) -> (i64, i64) {
    %c3 = arith.constant 0 : i32
    %cmp4 = arith.cmpi sle, %arg1, %c3 : i32
    cf.cond_br %cmp4, ^bb5, ^bb6
  ^bb5:
    %c7 = arith.constant -32768 : i16
    %c8 = arith.constant 7 : i16
    %v9 = arith.andi %c7, %c8 : i16
    %c10 = arith.constant 0 : i16
    cf.br ^bb11(%c10, %arg2 : i16, i8)
  ^bb11(%i14: i16, %acc15: i8):
    %cmp16 = arith.cmpi sge, %i14, %v9 : i16
    cf.cond_br %cmp16, ^bb13, ^bb12
  ^bb12:
    %c17 = arith.constant 16383 : i16
    %c18 = arith.constant 1 : i16
    %v19 = arith.andi %i14, %c17 : i16
    %v20 = arith.ori %v19, %c18 : i16
    %v21 = arith.floordivsi %i14, %v20 : i16
    %v22 = arith.extsi %arg2 : i8 to i16
    %v23 = arith.trunci %i14 : i16 to i8
    %c24 = arith.constant 63 : i8
    %c25 = arith.constant 1 : i8
    %v26 = arith.andi %v23, %c24 : i8
    %v27 = arith.ori %v26, %c25 : i8
    %v28 = arith.divsi %acc15, %v27 : i8
    %c29 = arith.constant 1 : i16
    %v30 = arith.addi %i14, %c29 : i16
    cf.br ^bb11(%v30, %v28 : i16, i8)
  ^bb13:
    %cmp31 = arith.cmpi sgt, %arg1, %arg1 : i32
    %v32 = arith.extsi %i14 : i16 to i64
    %c33 = arith.constant 8 : i64
    %v34 = arith.select %cmp31, %v32, %c33 : i64
    %v35 = arith.ori %i14, %i14 : i16
    %v36 = arith.extui %arg1 : i32 to i64
    return %v34, %v36 : i64, i64
  ^bb6:
    %c37 = arith.constant 1 : i32
    %v38 = arith.subi %arg1, %c37 : i32
    %r39, %r40 = call @scalar0(%v38, %arg2) : (i32, i8) -> (i64, i64)
    %v41 = arith.trunci %arg1 : i32 to i1
    %c42 = arith.constant false
    %v43 = arith.ori %v41, %c42 : i1
    %v44 = arith.trunci %r40 : i64 to i16
    %v45 = arith.trunci %r40 : i64 to i16
    %cmp46 = arith.cmpi ult, %v44, %v45 : i16
    %v47 = arith.extsi %v43 : i1 to i32
    %v48 = arith.select %cmp46, %v47, %arg1 : i32
    %v49 = arith.trunci %v48 : i32 to i8
    %v50 = arith.extui %v48 : i32 to i64
    return %v50, %r40 : i64, i64
  }
  func.func private @scalar1(%arg51: i32) -> i8 {
    %c52 = arith.constant 7 : i32
    %v53 = arith.andi %arg51, %c52 : i32
    %c54 = arith.constant 0 : i32
    %c55 = arith.constant 1 : i16
    cf.br ^bb56(%c54, %c55 : i32, i16)
  ^bb56(%i59: i32, %acc60: i16):
    %cmp61 = arith.cmpi sge, %i59, %v53 : i32
    cf.cond_br %cmp61, ^bb58, ^bb57
  ^bb57:
    %c62 = arith.constant 7 : i32
    %v63 = arith.andi %i59, %c62 : i32
    %c64 = arith.constant 0 : i32
    %c65 = arith.constant 2 : i64
    cf.br ^bb66(%c64, %c65 : i32, i64)
  ^bb66(%i69: i32, %acc70: i64):
    %cmp71 = arith.cmpi sge, %i69, %v63 : i32
    cf.cond_br %cmp71, ^bb68, ^bb67
  ^bb67:
    %v72 = arith.xori %acc70, %acc70 : i64
    %v73 = arith.maxsi %acc70, %v72 : i64
    %c74 = arith.constant 1 : i32
    %v75 = arith.addi %i69, %c74 : i32
    cf.br ^bb66(%v75, %v73 : i32, i64)
  ^bb68:
    %c76 = arith.constant 5 : i16
    %c77 = arith.constant 0 : i16
    %v78 = arith.trunci %i69 : i32 to i1
    cf.br ^bb79(%c77, %v78 : i16, i1)
  ^bb79(%i82: i16, %acc83: i1):
    %cmp84 = arith.cmpi sge, %i82, %c76 : i16
    cf.cond_br %cmp84, ^bb81, ^bb80
  ^bb80:
    %v85 = arith.trunci %arg51 : i32 to i1
    %c86 = arith.constant false
    %v87 = arith.andi %v85, %c86 : i1
    %v88 = arith.shrui %acc83, %v87 : i1
    %v89 = arith.maxsi %v88, %v88 : i1
    %c90 = arith.constant 1 : i16
    %v91 = arith.addi %i82, %c90 : i16
    cf.br ^bb79(%v91, %v89 : i16, i1)
  ^bb81:
    %v92 = arith.ori %i82, %i82 : i16
    %c93 = arith.constant 1 : i32
    %v94 = arith.addi %i59, %c93 : i32
    cf.br ^bb56(%v94, %v92 : i32, i16)
  ^bb58:
    %cmp95 = arith.cmpi ugt, %arg51, %arg51 : i32
    cf.cond_br %cmp95, ^bb96, ^bb97
  ^bb96:
    %c98 = arith.constant -1097218360 : i32
    %c99 = arith.constant 7 : i32
    %v100 = arith.andi %c98, %c99 : i32
    %v101 = arith.trunci %i59 : i32 to i8
    %r102, %r103 = call @scalar0(%v100, %v101) : (i32, i8) -> (i64, i64)
    %c104 = arith.constant -103 : i8
    return %c104 : i8
  ^bb97:
    %c105 = arith.constant 1073741823 : i32
    %c106 = arith.constant 1 : i32
    %v107 = arith.andi %arg51, %c105 : i32
    %v108 = arith.ori %v107, %c106 : i32
    %v109 = arith.divsi %i59, %v108 : i32
    %v110 = arith.trunci %arg51 : i32 to i8
    return %v110 : i8
  }
  func.func private @scalar2(%arg111: i8, %arg112: i16) -> (i8, i32) {
    %v113 = arith.extsi %arg111 : i8 to i64
    %v114 = arith.trunci %arg112 : i16 to i8
    %v115 = arith.subi %arg111, %v114 : i8
    %cmp116 = arith.cmpi eq, %v115, %arg111 : i8
    %c117 = arith.constant 6 : i8
    %v118 = arith.select %cmp116, %v115, %c117 : i8
    %v119 = arith.extui %v118 : i8 to i32
    return %arg111, %v119 : i8, i32
  }
  func.func private @tensor0(%arg120: tensor<5xi16>, %arg121: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) attributes {stream.affinity = #hal.device.affinity<@a>} {
    %e122 = tensor.empty() : tensor<5x3xi16>
    %c123 = arith.constant -9 : i8
    %c124 = arith.constant 23801 : i16
    %r125, %r126 = call @scalar2(%c123, %c124) : (i8, i16) -> (i8, i32)
    %v127 = arith.trunci %r126 : i32 to i16
    %t128 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v127 : i16) outs(%e122 : tensor<5x3xi16>) -> tensor<5x3xi16>
    %e129 = tensor.empty() : tensor<3xi16>
    %v130 = arith.extui %r125 : i8 to i16
    %r131, %r132 = call @scalar2(%r125, %v130) : (i8, i16) -> (i8, i32)
    %v133 = arith.extsi %r131 : i8 to i16
    %t134 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v133 : i16) outs(%e129 : tensor<3xi16>) -> tensor<3xi16>
    %c135 = linalg.vecmat ins(%arg120, %t128 : tensor<5xi16>, tensor<5x3xi16>) outs(%t134 : tensor<3xi16>) -> tensor<3xi16>
    %e136 = tensor.empty() : tensor<5xi32>
    %c137 = arith.constant 7 : i32
    %v138 = arith.andi %r126, %c137 : i32
    %r139, %r140 = call @scalar0(%v138, %r131) : (i32, i8) -> (i64, i64)
    %v141 = arith.extui %r125 : i8 to i32
    %t142 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v141 : i32) outs(%e136 : tensor<5xi32>) -> tensor<5xi32>
    %t143 = call @Triple.function(%arg121, %t142) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %e144 = tensor.empty() : tensor<5xi32>
    %t145 = call @Double.function(%arg121, %e144) {stream.affinity = #hal.device.affinity<@a>} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    return %t145, %t142, %t145 : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
  }
  func.func private @tensor1(%arg146: tensor<5xf64>, %arg147: tensor<5xi16>) -> (tensor<5xi32> {stream.affinity = #hal.device.affinity<@b>}, tensor<5xi32>) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %e148 = tensor.empty() : tensor<2x4xf64>
    %c149 = arith.constant -2.0 : f64
    %t150 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%c149 : f64) outs(%e148 : tensor<2x4xf64>) -> tensor<2x4xf64>
    %t151 = math.tanh %t150 : tensor<2x4xf64>
    %t153 = math.absf %t151 : tensor<2x4xf64>
    %t154 = arith.negf %t153 : tensor<2x4xf64>
    %t152 = math.exp %t154 : tensor<2x4xf64>
    %e155 = tensor.empty() : tensor<2xf64>
    %c156 = arith.constant 1.25 : f64
    %t157 = linalg.fill ins(%c156 : f64) outs(%e155 : tensor<2xf64>) -> tensor<2xf64>
    %g168 = linalg.generic{indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%t152 : tensor<2x4xf64>) outs(%t157 : tensor<2xf64>) {
    ^bb0(%in158: f64, %acc159: f64):
      %b160 = arith.maximumf %in158, %in158 : f64
      %b161 = arith.maximumf %b160, %b160 : f64
      %k164 = arith.constant 1.0 : f64
      %b165 = math.absf %b160 : f64
      %b163 = arith.addf %b165, %k164 : f64
      %b166 = math.log %b163 : f64
      %b167 = arith.minimumf %acc159, %b166 : f64
      linalg.yield %b167 : f64
    } -> tensor<2xf64>
    %t169 = arith.maximumf %g168, %t157 : tensor<2xf64>
    %e171 = tensor.empty() : tensor<2xf64>
    %c172 = arith.constant 2.75 : f64
    %t173 = linalg.fill ins(%c172 : f64) outs(%e171 : tensor<2xf64>) -> tensor<2xf64>
    %t170 = arith.subf %t169, %t173 {stream.affinity = #hal.device.affinity<@a>} : tensor<2xf64>
    %e174 = tensor.empty() : tensor<5xf64>
    %c175 = arith.constant 2.25 : f64
    %t176 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%c175 : f64) outs(%e174 : tensor<5xf64>) -> tensor<5xf64>
    %c177 = arith.constant -110 : i8
    %c178 = arith.constant 656 : i16
    %r179, %r180 = call @scalar2(%c177, %c178) : (i8, i16) -> (i8, i32)
    %v181 = arith.extui %r179 : i8 to i16
    %v182 = arith.subi %v181, %v181 : i16
    %t183 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v182 : i16) outs(%arg147 : tensor<5xi16>) -> tensor<5xi16>
    %t184 = arith.mulf %t176, %arg146 : tensor<5xf64>
    %e185 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<5xi32>
    %v186 = arith.trunci %r180 : i32 to i8
    %v187 = arith.trunci %r180 : i32 to i16
    %r188, %r189 = call @scalar2(%v186, %v187) : (i8, i16) -> (i8, i32)
    %v190 = arith.extsi %r188 : i8 to i32
    %t191 = linalg.fill ins(%v190 : i32) outs(%e185 : tensor<5xi32>) -> tensor<5xi32>
    %t192, %t193, %t194 = call @tensor0(%arg147, %t191) : (tensor<5xi16>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>)
    %e195 = tensor.empty() : tensor<3x1xi8>
    %v196 = arith.trunci %r189 : i32 to i16
    %r197, %r198 = call @scalar2(%r179, %v196) : (i8, i16) -> (i8, i32)
    %c199 = arith.constant 63 : i8
    %c200 = arith.constant 1 : i8
    %v201 = arith.andi %r197, %c199 : i8
    %v202 = arith.ori %v201, %c200 : i8
    %v203 = arith.remsi %r197, %v202 : i8
    %t204 = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v203 : i8) outs(%e195 : tensor<3x1xi8>) -> tensor<3x1xi8>
    %e206 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<1xi8>
    %r207 = call @scalar1(%r180) : (i32) -> i8
    %v208 = arith.trunci %r180 : i32 to i8
    %c209 = arith.constant 7 : i8
    %v210 = arith.andi %v208, %c209 : i8
    %v211 = arith.shrsi %r207, %v210 : i8
    %t212 = linalg.fill ins(%v211 : i8) outs(%e206 : tensor<1xi8>) -> tensor<1xi8>
    %e213 = tensor.empty() : tensor<3x1xi8>
    %b214 = linalg.broadcast ins(%t212 : tensor<1xi8>) outs(%e213 : tensor<3x1xi8>) dimensions = [0]
    %t205 = arith.addi %t204, %b214 {stream.affinity = #hal.device.affinity<@a>} : tensor<3x1xi8>
    %e216 = tensor.empty() : tensor<1xi8>
    %c217 = arith.constant 7 : i32
    %v218 = arith.andi %r189, %c217 : i32
    %c219 = arith.constant 127 : i8
    %r220, %r221 = call @scalar0(%v218, %c219) : (i32, i8) -> (i64, i64)
    %c222 = arith.constant -41 : i8
    %t223 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%c222 : i8) outs(%e216 : tensor<1xi8>) -> tensor<1xi8>
    %e224 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<3x1xi8>
    %b225 = linalg.broadcast ins(%t223 : tensor<1xi8>) outs(%e224 : tensor<3x1xi8>) dimensions = [0]
    %t215 = arith.maxsi %t205, %b225 {stream.affinity = #hal.device.affinity<@b>} : tensor<3x1xi8>
    %e226 = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<1x3xi8>
    %v227 = arith.trunci %r189 : i32 to i8
    %t228 = linalg.fill ins(%v227 : i8) outs(%e226 : tensor<1x3xi8>) -> tensor<1x3xi8>
    %e229 = tensor.empty() : tensor<3x1xi8>
    %c230 = arith.constant -1 : i8
    %c231 = arith.constant -14997 : i16
    %r232, %r233 = call @scalar2(%c230, %c231) : (i8, i16) -> (i8, i32)
    %v234 = arith.trunci %r180 : i32 to i8
    %t235 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v234 : i8) outs(%e229 : tensor<3x1xi8>) -> tensor<3x1xi8>
    %g241 = linalg.generic{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t215, %t228 : tensor<3x1xi8>, tensor<1x3xi8>) outs(%t235 : tensor<3x1xi8>) {
    ^bb0(%in236: i8, %in237: i8, %acc238: i8):
      %b239 = arith.xori %in237, %in237 : i8
      %b240 = arith.subi %acc238, %in237 : i8
      linalg.yield %b240 : i8
    } -> tensor<3x1xi8>
    %e243 = tensor.empty() : tensor<1xi8>
    %v244 = arith.trunci %r220 : i64 to i32
    %c245 = arith.constant 7 : i32
    %v246 = arith.andi %v244, %c245 : i32
    %r247, %r248 = call @scalar0(%v246, %r207) : (i32, i8) -> (i64, i64)
    %v249 = arith.trunci %r189 : i32 to i8
    %t250 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v249 : i8) outs(%e243 : tensor<1xi8>) -> tensor<1xi8>
    %e251 = tensor.empty() : tensor<3x1xi8>
    %b252 = linalg.broadcast ins(%t250 : tensor<1xi8>) outs(%e251 : tensor<3x1xi8>) dimensions = [0]
    %t242 = arith.maxsi %g241, %b252 : tensor<3x1xi8>
    return %t192, %t191 : tensor<5xi32>, tensor<5xi32>
  }
  func.func @main(%arg253: tensor<5xi16>, %arg254: tensor<5xi8>, %arg255: tensor<5xi16>, %arg256: tensor<5xi32>, %arg257: i16) -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, i8) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %e258 = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<1x5xi32>
    %b259 = linalg.broadcast ins(%arg256 : tensor<5xi32>) outs(%e258 : tensor<1x5xi32>) dimensions = [0]
    %t260 = arith.constant dense<0> : tensor<5xi8>
    %c261 = arith.constant 0 : index
    %x262 = tensor.extract %t260[%c261] {stream.affinity = #hal.device.affinity<@a>} : tensor<5xi8>
    %t263 = arith.constant dense<-1.25> : tensor<5xf64>
    %t264, %t265 = call @tensor1(%t263, %arg255) : (tensor<5xf64>, tensor<5xi16>) -> (tensor<5xi32>, tensor<5xi32>)
    %t266 = arith.constant dense<-7> : tensor<5xi32>
    %e267 = tensor.empty() : tensor<5xf64>
    %sm268 = linalg.softmax {stream.affinity = #hal.device.affinity<@b>} dimension(0) ins(%t263 : tensor<5xf64>) outs(%e267 : tensor<5xf64>) -> tensor<5xf64>
    %t269 = arith.mulf %t263, %sm268 : tensor<5xf64>
    %t270 = arith.muli %t265, %t266 : tensor<5xi32>
    %e271 = tensor.empty() : tensor<5xi32>
    %t272 = call @Triple.function(%t266, %e271) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %t273 = arith.subi %t270, %t272 {stream.affinity = #hal.device.affinity<@b>} : tensor<5xi32>
    return %t269, %t269, %sm268, %x262 : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, i8
  }
}
