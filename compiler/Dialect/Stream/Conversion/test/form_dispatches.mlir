// Dispatch formation (FormDispatches.h): what convert-input-to-stream puts
// into one dispatch, and what it keeps apart and why.
// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// A contraction with its destination's constant fill and its elementwise
// consumers (the broadcast bias add and the ReLU, merged into one generic
// first) is one dispatch; the generic writes over the matmul's result, so
// the dispatch's result is tied to the matmul's destination: the one
// tensor.empty the other two used goes unused and only one is allocated.
// CHECK-LABEL: module @fused_dispatch_0
// CHECK:         func.func @fused_dispatch_0(%[[DEST:.*]]: tensor<4x16xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:           %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<4x16xf32>)
// CHECK:           %[[M:.*]] = linalg.matmul ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Z]] : tensor<4x16xf32>)
// CHECK:           %[[R:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<16xf32>) outs(%[[M]] : tensor<4x16xf32>)
// CHECK:             arith.addf
// CHECK:             arith.maximumf
// CHECK:           return %[[R]]
// CHECK-NOT:     module @fused_dispatch_1
// CHECK-LABEL: func.func @fused(
// CHECK-COUNT-1: stream.async.alloca
// CHECK-NOT:     stream.async.alloca
// CHECK-NOT:     stream.async.fill
// CHECK:         %[[D:.*]] = stream.async.dispatch.entry @fused_dispatch_0::@fused_dispatch_0
// CHECK-NOT:     stream.async.dispatch
// CHECK:         stream.tensor.export %[[D]]
func.func @fused(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %bb = linalg.broadcast ins(%b : tensor<16xf32>) outs(%e : tensor<4x16xf32>) dimensions = [0]
  %a = arith.addf %m, %bb : tensor<4x16xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = arith.maximumf %a, %zz : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}


// -----

// An intermediate used twice (the matmul's result, read by two elementwise
// ops) is not fused into either: it stays a value of its own.
// CHECK-LABEL: module @used_twice_dispatch_0
// CHECK:         linalg.fill
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: module @used_twice_dispatch_1
// CHECK:         math.exp
// CHECK-LABEL: module @used_twice_dispatch_2
// CHECK:         math.tanh
// CHECK-LABEL: func.func @used_twice(
// CHECK:         %[[M:.*]] = stream.async.dispatch.entry @used_twice_dispatch_0
// CHECK:         stream.async.dispatch.entry @used_twice_dispatch_1::@used_twice_dispatch_1 {{.*}}(%[[M]],
// CHECK:         stream.async.dispatch.entry @used_twice_dispatch_2::@used_twice_dispatch_2 {{.*}}(%[[M]],
func.func @used_twice(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = math.exp %m : tensor<4x16xf32>
  %t = math.tanh %m : tensor<4x16xf32>
  return %r, %t : tensor<4x16xf32>, tensor<4x16xf32>
}


// -----

// An elementwise producer whose value a later op needs (here an external
// call) is not fused into the matmul: it is dispatched alone and both read
// its result.
// CHECK-LABEL: module @producer_used_later_dispatch_0
// CHECK:         math.exp
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: module @producer_used_later_dispatch_1
// CHECK-NOT:     math.exp
// CHECK:         linalg.matmul
// CHECK-LABEL: func.func @producer_used_later(
// CHECK:         %[[EX:.*]] = stream.async.dispatch.entry @producer_used_later_dispatch_0
// CHECK:         stream.async.dispatch.entry @producer_used_later_dispatch_1::@producer_used_later_dispatch_1 {{.*}}(%{{.*}}, %[[EX]],
// CHECK:         stream.async.call @ext(%[[EX]])
func.func private @ext(tensor<4x8xf32>) -> tensor<4x8xf32> attributes {iree.abi.model = "coarse-fences"}
func.func @producer_used_later(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x8xf32>) {
  %ex = math.exp %x : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = call @ext(%ex) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m, %c : tensor<4x16xf32>, tensor<4x8xf32>
}


// -----

// Ops placed on different devices are never fused: the consumer on @b is a
// dispatch of its own there.
// CHECK-LABEL: module @two_devices_dispatch_0
// CHECK:         linalg.matmul
// CHECK-NEXT:    return
// CHECK-LABEL: module @two_devices_dispatch_1
// CHECK:         math.exp
// CHECK-LABEL: func.func @two_devices(
// CHECK:         stream.async.dispatch.entry @two_devices_dispatch_0{{.*}}stream.affinity = #hal.device.affinity<@a>
// CHECK:         stream.async.dispatch.entry @two_devices_dispatch_1{{.*}}stream.affinity = #hal.device.affinity<@b>
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @two_devices(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<4x16xf32>
  %z = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul {stream.affinity = #hal.device.affinity<@a>} ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = math.exp %m {stream.affinity = #hal.device.affinity<@b>} : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// An elementwise producer only the matmul reads is fused: its destination
// is a tensor.empty made inside the dispatch (sized from the producer's
// input there), never allocated by the program. The exp of a reduction's
// input goes into the reduction's body.
// CHECK-LABEL: module @producer_fused_dispatch_0
// CHECK:         func.func @producer_fused_dispatch_0(%[[X:.*]]: tensor<?x8xf32>, %[[DEST:.*]]: tensor<?x16xf32>, %[[W:.*]]: tensor<8x16xf32>)
// CHECK:           %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK:           %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK:           %[[EX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>)
// CHECK:             math.exp
// CHECK:           %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?x16xf32>)
// CHECK:           linalg.matmul ins(%[[EX]], %[[W]] : {{.*}}) outs(%[[Z]] : tensor<?x16xf32>)
// CHECK-LABEL: module @producer_fused_dispatch_1
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-LABEL: func.func @producer_fused(
// CHECK-COUNT-2: stream.async.alloca
// CHECK-NOT:     stream.async.alloca
func.func @producer_fused(%x: tensor<?x8xf32>, %w: tensor<8x16xf32>) -> (tensor<?x16xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %ex = math.exp %x : tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<?x8xf32>, tensor<8x16xf32>) outs(%z : tensor<?x16xf32>) -> tensor<?x16xf32>
  %ex2 = math.exp %x : tensor<?x8xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%ex2 : tensor<?x8xf32>) outs(%z1 : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %m, %s : tensor<?x16xf32>, tensor<?xf32>
}

// -----

// Scalars a body reads that are no constants become 0-d tensor inputs,
// filled just before the dispatch: a scalar `ins` keeps its place and map, a
// captured one is appended (an index as i64, cast back in the body). A
// constant the body captures stays inside the executable.
// CHECK-LABEL: module @scalars_dispatch_0
// CHECK:         func.func @scalars_dispatch_0(%[[X:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<f32>, %[[K:.*]]: tensor<i64>, %{{.*}}: tensor<8xf32>)
// CHECK:           arith.constant 2.000000e+00 : f32
// CHECK:           linalg.generic {indexing_maps = [#{{.*}}, #[[SCALAR:.*]], #[[SCALAR]], #{{.*}}]
// CHECK-SAME:        ins(%[[X]], %[[S]], %[[K]] : tensor<8xf32>, tensor<f32>, tensor<i64>)
// CHECK:           ^bb0(%{{.*}}: f32, %[[SV:.*]]: f32, %[[KV:.*]]: i64, %{{.*}}: f32):
// CHECK:             %[[KI:.*]] = arith.index_cast %[[KV]] : i64 to index
// CHECK:             arith.muli %{{.*}}, %[[KI]] : index
// CHECK:             arith.addf %{{.*}}, %[[SV]] : f32
// CHECK-LABEL: func.func @scalars(
// CHECK:         %[[ST:.*]] = stream.async.fill %arg1, %{{.*}} : f32
// CHECK:         %[[KC:.*]] = arith.index_cast %arg2 : index to i64
// CHECK:         %[[KT:.*]] = stream.async.fill %[[KC]], %{{.*}} : i64
// CHECK:         stream.async.dispatch.entry @scalars_dispatch_0::@scalars_dispatch_0 {{.*}}(%{{.*}}, %[[ST]], %[[KT]], %{{.*}})
func.func @scalars(%x: tensor<8xf32>, %s: f32, %k: index) -> tensor<8xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, f32) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %i = linalg.index 0 : index
    %ik = arith.muli %i, %k : index
    %c = arith.index_cast %ik : index to i64
    %f = arith.sitofp %c : i64 to f32
    %m = arith.mulf %v, %two : f32
    %a = arith.addf %m, %sv : f32
    %b = arith.addf %a, %f : f32
    linalg.yield %b : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
