// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Arguments become checked imports, results exports, elementwise ops (add,
// sub and mul like any other) native dispatches into a fresh alloca.
// CHECK-LABEL: func.func @static(
// CHECK-SAME: %[[A:.+]]: !hal.buffer_view, %[[B:.+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK: %[[SA:.+]] = stream.tensor.sizeof tensor<4xi32> : index
// CHECK: %[[RA:.+]] = stream.tensor.import %[[A]] message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%[[SA]]}
// CHECK: %[[RB:.+]] = stream.tensor.import %[[B]] message("input 1")
// CHECK: %[[SE:.+]] = stream.tensor.sizeof tensor<4xi32> : index
// CHECK-NEXT: %[[E:.+]] = stream.async.alloca : !stream.resource<external>{%[[SE]]}
// CHECK: %[[SUM:.+]] = stream.async.dispatch.entry @static_dispatch_0::@static_dispatch_0 {{.+}} push_constants() (%[[RA]], %[[RB]], %[[E]]) : {{.+}} -> %[[E]]{%[[SE]]}
// CHECK: %[[OUT:.+]] = stream.tensor.export %[[SUM]] : tensor<4xi32> in !stream.resource<external>{%[[SE]]} -> !hal.buffer_view
// CHECK: return %[[OUT]]
func.func @static(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Dynamic dims are read from the view; tensor.dim reads them back.
// CHECK-LABEL: func.func @dynamic(
// CHECK: %[[D0:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view> [0] : index
// CHECK: %[[S:.+]] = stream.tensor.sizeof tensor<?x3xf32>{%[[D0]]} : index
// CHECK: stream.tensor.import %{{.+}} message("input 0") : !hal.buffer_view -> tensor<?x3xf32>{%[[D0]]}
// CHECK: stream.async.dispatch.entry @dynamic_dispatch_0::@dynamic_dispatch_0 {{.+}} push_constants(%[[D0]], %[[D0]], %[[D0]])
// CHECK-NOT: tensor.dim
// CHECK: arith.addi %[[D0]], %[[D0]] : index
func.func @dynamic(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %0 = arith.mulf %a, %a : tensor<?x3xf32>
  %d = tensor.dim %0, %c0 : tensor<?x3xf32>
  %unused = arith.addi %d, %d : index
  return %0 : tensor<?x3xf32>
}

// -----

// Intermediate results stay of undecided lifetime; only results are external.
// CHECK-LABEL: func.func @chain
// CHECK: %[[E0:.+]] = stream.async.alloca : !stream.resource<*>
// CHECK: %[[T:.+]] = stream.async.dispatch.entry @chain_dispatch_0::@chain_dispatch_0 {{.+}} -> %[[E0]]
// CHECK: %[[E1:.+]] = stream.async.alloca : !stream.resource<external>
// CHECK: stream.async.dispatch.entry @chain_dispatch_1::@chain_dispatch_1 {{.+}} (%[[T]], %[[T]], %[[E1]]) {{.+}} -> %[[E1]]
func.func @chain(%a: tensor<2x2xi64>, %b: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = arith.subi %a, %b : tensor<2x2xi64>
  %1 = arith.muli %0, %0 : tensor<2x2xi64>
  return %1 : tensor<2x2xi64>
}

// -----

// A returned argument is exported straight from its import.
// CHECK-LABEL: func.func @passthrough
// CHECK: %[[R:.+]] = stream.tensor.import
// CHECK: stream.tensor.export %[[R]]
func.func @passthrough(%a: tensor<8xi8>) -> tensor<8xi8> {
  return %a : tensor<8xi8>
}

// -----

// Returned storage is external with everything tied to it, including an
// in-place write that branches off it (the second fill, which only the add
// reads: a generic yielding 9 into %f, a dispatch tied to it): the verifier
// needs a tied result and its operand to agree, and copy-on-write later
// gives that write storage of its own. (%g is read twice, so it is not
// fused into the add.)
// CHECK-LABEL: func.func @fill_into_returned
// CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<external>
// CHECK: %[[F:.+]] = stream.async.fill %{{.+}}, %[[E]] : i32 -> !stream.resource<external>
// CHECK: %[[G:.+]] = stream.async.dispatch.entry {{.+}} (%[[F]]) : (!stream.resource<external>{{.+}}) -> %[[F]]{
// CHECK: stream.tensor.export %[[F]]
func.func @fill_into_returned(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %c7 = arith.constant 7 : i32
  %f = linalg.fill ins(%c7 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %c9 = arith.constant 9 : i32
  %g = linalg.fill ins(%c9 : i32) outs(%f : tensor<4xi32>) -> tensor<4xi32>
  %s = arith.addi %g, %g : tensor<4xi32>
  return %f, %s : tensor<4xi32>, tensor<4xi32>
}
