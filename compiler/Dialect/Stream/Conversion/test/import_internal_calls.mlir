// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// A call to a tensor function of the module uses the host convention: the
// caller exports its argument (keeping ownership) and imports the result
// with `consume` (taking the callee's). The callee is imported like a public
// function.
// CHECK-LABEL: module @internal
// CHECK: func.func private @square(%[[X:.+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK:   stream.tensor.import %[[X]] message("input 0")
// CHECK:   stream.async.dispatch.entry @square_dispatch_0::@square_dispatch_0
// CHECK-NOT: stream.async.transfer
// CHECK:   stream.tensor.export
// CHECK: func.func @main(%[[A:.+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK:   %[[IN:.+]] = stream.tensor.import %[[A]]
// CHECK:   %[[V:.+]] = stream.tensor.export %[[IN]] : tensor<4xi32>
// CHECK:   %[[R:.+]] = call @square(%[[V]]) : (!hal.buffer_view) -> !hal.buffer_view
// CHECK:   stream.tensor.import consume %[[R]] message("result 0 of 'square'")
// CHECK-NOT: call @square
// CHECK:   return
module @internal {
  func.func private @square(%x: tensor<4xi32>) -> tensor<4xi32> {
    %0 = arith.muli %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
    %0 = call @square(%a) : (tensor<4xi32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}

// -----

// The caller owns each result, so a called function returns storage of its
// own: an argument, or a value returned twice, is copied (a transfer, which
// copy elision keeps). Dynamic result dims come from the returned view.
// CHECK-LABEL: module @fresh_results
// CHECK: func.func @twice(%[[X:.+]]: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view)
// CHECK:   %[[IN:.+]] = stream.tensor.import %[[X]]
// CHECK:   %[[C0:.+]] = stream.async.transfer %[[IN]]
// CHECK:   stream.tensor.export %[[C0]]
// CHECK:   %[[C1:.+]] = stream.async.transfer %[[IN]]
// CHECK:   stream.tensor.export %[[C1]]
// CHECK: func.func @main(
// CHECK:   %[[R:.+]]:2 = call @twice(
// CHECK:   %[[D:.+]] = hal.buffer_view.dim<%[[R]]#0 : !hal.buffer_view> [0]
// CHECK:   stream.tensor.import consume %[[R]]#0 message("result 0 of 'twice'") : !hal.buffer_view -> tensor<?xi32>{%[[D]]}
// CHECK:   stream.tensor.import consume %[[R]]#1 message("result 1 of 'twice'")
module @fresh_results {
  func.func @twice(%x: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
    return %x, %x : tensor<?xi32>, tensor<?xi32>
  }
  func.func @main(%a: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
    %0:2 = call @twice(%a) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    return %0#0, %0#1 : tensor<?xi32>, tensor<?xi32>
  }
}

// -----

// Functions without tensors, which may branch, are left alone, and so are
// calls to them.
// CHECK-LABEL: module @scalar
// CHECK: func.func private @count(%{{.+}}: i32) -> i32
// CHECK:   cf.cond_br
// CHECK: func.func @main(
// CHECK:   %[[N:.+]] = call @count(%{{.+}}) : (i32) -> i32
// CHECK:   stream.async.fill %[[N]]
module @scalar {
  func.func private @count(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %n, %c0 : i32
    cf.cond_br %neg, ^zero, ^done
  ^zero:
    return %c0 : i32
  ^done:
    return %n : i32
  }
  func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
    %c3 = arith.constant 3 : i32
    %n = call @count(%c3) : (i32) -> i32
    %e = tensor.empty() : tensor<4xi32>
    %f = linalg.fill ins(%n : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    return %f : tensor<4xi32>
  }
}
