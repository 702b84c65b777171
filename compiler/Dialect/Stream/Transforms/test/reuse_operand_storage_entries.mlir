// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage | FileCheck %s
// RUN: ferry-opt %s --split-input-file --stream-reuse-operand-storage --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s --check-prefix=CMD

// Native elementwise dispatches (what add, sub, mul and every other
// elementwise op become): the intent of reuse_operand_storage.mlir with
// executables. The first dispatch reads the host's input and writes a fresh
// alloca; the second writes into that result, which dies there: its
// executable reads the destination where it read the operand (passed twice:
// both bindings go, with their push constants), and its alloca goes.
// CHECK-LABEL: module @chain_d0
// CHECK: func.func @chain_d0(%{{.+}}: tensor<?xf32>, %{{.+}}: tensor<?xf32>, %{{.+}}: tensor<?xf32>) -> (tensor<?xf32> {ferry.destination = 2 : i64})
// CHECK-LABEL: module @chain_d1
// CHECK: func.func @chain_d1(%[[B:[a-z0-9]+]]: tensor<?xf32>, %[[O:[a-z0-9]+]]: tensor<?xf32>)
// CHECK-SAME: {ferry.destination = 1 : i64}
// CHECK: linalg.generic {indexing_maps = [#map, #map], {{.+}} ins(%[[B]] : tensor<?xf32>) outs(%[[O]] : tensor<?xf32>)
// CHECK: ^bb0(%[[IN:[a-z0-9_]+]]: f32, %[[OUT:[a-z0-9_]+]]: f32):
// CHECK: %[[M:.+]] = arith.mulf %[[OUT]], %[[OUT]] : f32
// CHECK: arith.addf %[[M]], %[[IN]] : f32
// CHECK-LABEL: func.func @chain(
// CHECK-COUNT-1: stream.async.alloca
// CHECK-NOT: stream.async.alloca
// CHECK: %[[T0:.+]] = stream.async.dispatch.entry @chain_d0::@chain_d0 {{.+}} push_constants(%[[N:.+]], %[[N]], %[[N]])
// CHECK: stream.async.dispatch.entry @chain_d1::@chain_d1 workgroups(%[[N]], %{{.+}}, %{{.+}}) push_constants(%[[N]], %[[N]]) (%[[A:.+]], %[[T0]]) : (!stream.resource<external>{%{{.+}}}, !stream.resource<external>{%{{.+}}}) -> %[[T0]]{%{{.+}}}
// CMD-LABEL: func.func @chain(
// CMD-COUNT-1: stream.resource.alloca
// CMD-NOT: stream.resource.alloca
#map = affine_map<(d0) -> (d0)>
module @chain_d0 attributes {ferry.executable} {
  func.func @chain_d0(%a: tensor<?xf32>, %b: tensor<?xf32>, %o: tensor<?xf32>) -> (tensor<?xf32> {ferry.destination = 2 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%o : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %m = arith.mulf %x, %y : f32
      linalg.yield %m : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
module @chain_d1 attributes {ferry.executable} {
  func.func @chain_d1(%t: tensor<?xf32>, %b: tensor<?xf32>, %t2: tensor<?xf32>, %o: tensor<?xf32>) -> (tensor<?xf32> {ferry.destination = 3 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%t, %b, %t2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%o : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32, %x2: f32, %z: f32):
      %m = arith.mulf %x, %x2 : f32
      %s = arith.addf %m, %y : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
func.func @chain(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c1 = arith.constant 1 : index
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<?xf32>{%n} in !stream.resource<external>{%s}
  %e0 = stream.async.alloca : !stream.resource<*>{%s}
  %0 = stream.async.dispatch.entry @chain_d0::@chain_d0 workgroups(%n, %c1, %c1) push_constants(%n, %n, %n) (%a, %a, %e0) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<*>{%s}) -> %e0{%s}
  %e1 = stream.async.alloca : !stream.resource<external>{%s}
  %1 = stream.async.dispatch.entry @chain_d1::@chain_d1 workgroups(%n, %c1, %c1) push_constants(%n, %n, %n, %n) (%0, %a, %0, %e1) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}, !stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e1{%s}
  %out = stream.tensor.export %1 : tensor<?xf32>{%n} in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Left alone, each operand otherwise eligible (a splat that dies there):
// an executable two dispatches run, one that is not elementwise (a
// transpose map), an operand of another element type of the same size, an
// operand exported too, and a result only inserted into a larger resource
// (stream-schedule-allocation makes it there instead).
// CHECK-LABEL: func.func @kept
// CMD-LABEL: func.func @kept
// CHECK-COUNT-7: stream.async.alloca
// CHECK-NOT: stream.async.alloca
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#transpose = affine_map<(d0, d1) -> (d1, d0)>
module @shared attributes {ferry.executable} {
  func.func @shared(%a: tensor<2x2xf32>, %o: tensor<2x2xf32>) -> (tensor<2x2xf32> {ferry.destination = 1 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
}
module @transpose attributes {ferry.executable} {
  func.func @transpose(%a: tensor<2x2xf32>, %o: tensor<2x2xf32>) -> (tensor<2x2xf32> {ferry.destination = 1 : i64}) {
    %r = linalg.generic {indexing_maps = [#transpose, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      linalg.yield %x : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
}
module @convert attributes {ferry.executable} {
  func.func @convert(%a: tensor<2x2xi32>, %o: tensor<2x2xf32>) -> (tensor<2x2xf32> {ferry.destination = 1 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xi32>) outs(%o : tensor<2x2xf32>) {
    ^bb0(%x: i32, %z: f32):
      %f = arith.sitofp %x : i32 to f32
      linalg.yield %f : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
}
module @exported attributes {ferry.executable} {
  func.func @exported(%a: tensor<2x2xf32>, %o: tensor<2x2xf32>) -> (tensor<2x2xf32> {ferry.destination = 1 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
}
module @tile attributes {ferry.executable} {
  func.func @tile(%a: tensor<2x2xf32>, %o: tensor<2x2xf32>) -> (tensor<2x2xf32> {ferry.destination = 1 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) {
    ^bb0(%x: f32, %z: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<2x2xf32>
    return %r : tensor<2x2xf32>
  }
}
func.func @kept() -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %i = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<2x2xf32> : index
  %s2 = stream.tensor.sizeof tensor<4x2xf32> : index
  %t0 = stream.async.splat %f : f32 -> !stream.resource<*>{%s}
  %e0 = stream.async.alloca : !stream.resource<*>{%s}
  %0 = stream.async.dispatch.entry @shared::@shared workgroups(%c1, %c1, %c1) push_constants() (%t0, %e0) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %e0{%s}
  %e1 = stream.async.alloca : !stream.resource<external>{%s}
  %1 = stream.async.dispatch.entry @shared::@shared workgroups(%c1, %c1, %c1) push_constants() (%0, %e1) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e1{%s}
  %t2 = stream.async.splat %f : f32 -> !stream.resource<*>{%s}
  %e2 = stream.async.alloca : !stream.resource<external>{%s}
  %2 = stream.async.dispatch.entry @transpose::@transpose workgroups(%c1, %c1, %c1) push_constants() (%t2, %e2) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e2{%s}
  %t3 = stream.async.splat %i : i32 -> !stream.resource<*>{%s}
  %e3 = stream.async.alloca : !stream.resource<external>{%s}
  %3 = stream.async.dispatch.entry @convert::@convert workgroups(%c1, %c1, %c1) push_constants() (%t3, %e3) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e3{%s}
  %t4 = stream.async.splat %f : f32 -> !stream.resource<external>{%s}
  %e4 = stream.async.alloca : !stream.resource<external>{%s}
  %4 = stream.async.dispatch.entry @exported::@exported workgroups(%c1, %c1, %c1) push_constants() (%t4, %e4) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> %e4{%s}
  %big = stream.async.alloca : !stream.resource<external>{%s2}
  %t5 = stream.async.splat %f : f32 -> !stream.resource<*>{%s}
  %e5 = stream.async.alloca : !stream.resource<*>{%s}
  %5 = stream.async.dispatch.entry @tile::@tile workgroups(%c1, %c1, %c1) push_constants() (%t5, %e5) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %e5{%s}
  %u = stream.async.update %5, %big[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%s2}
  %o1 = stream.tensor.export %1 : tensor<2x2xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o2 = stream.tensor.export %2 : tensor<2x2xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o3 = stream.tensor.export %3 : tensor<2x2xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o4 = stream.tensor.export %4 : tensor<2x2xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o5 = stream.tensor.export %t4 : tensor<2x2xf32> in !stream.resource<external>{%s} -> !hal.buffer_view
  %o6 = stream.tensor.export %u : tensor<4x2xf32> in !stream.resource<external>{%s2} -> !hal.buffer_view
  return %o1, %o2, %o3, %o4, %o5, %o6 : !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view, !hal.buffer_view
}

// -----

// A result copied whole into an operand nothing reads afterwards (a function
// result tied to its argument: acc = acc + x) is written there directly: the
// operand is the destination and the update goes.
// CHECK-LABEL: func.func @into_operand(
// CHECK-NOT: stream.async.alloca
// CHECK: %[[D:.+]] = stream.async.dispatch.entry @acc::@acc {{.+}} (%[[X:.+]], %[[ACC:.+]]) : {{.+}} -> %[[ACC]]{
// CHECK-NOT: stream.async.update
// CHECK: stream.tensor.export %[[D]]
#map = affine_map<(d0) -> (d0)>
module @acc attributes {ferry.executable} {
  func.func @acc(%a: tensor<4xi32>, %x: tensor<4xi32>, %o: tensor<4xi32>) -> (tensor<4xi32> {ferry.destination = 2 : i64}) {
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %x : tensor<4xi32>, tensor<4xi32>) outs(%o : tensor<4xi32>) {
    ^bb0(%p: i32, %q: i32, %z: i32):
      %s = arith.addi %p, %q : i32
      linalg.yield %s : i32
    } -> tensor<4xi32>
    return %r : tensor<4xi32>
  }
}
func.func @into_operand(%vx: !hal.buffer_view, %vacc: !hal.buffer_view) -> !hal.buffer_view attributes {stream.tied_operands = array<i64: 1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %acc = stream.tensor.import %vacc message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %d = stream.async.dispatch.entry @acc::@acc workgroups(%c1, %c1, %c1) push_constants() (%acc, %x, %e) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<*>{%s}) -> %e{%s}
  %u = stream.async.update %d, %acc[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %v = stream.tensor.export %u : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}
