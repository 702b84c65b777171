// A loop adding to a tensor in place N times, through the async phase of
// ferry-compile: the loop carries one resource, updated in place by every
// iteration (the dispatch's executable reads it as its destination), with
// no copy anywhere (the init is a splat the program owns).
// The scheduled phase is not there yet for regions.
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --implicit-check-not=stream.async.clone --implicit-check-not=stream.async.transfer

// CHECK-LABEL: func.func @main(
// CHECK: %[[X:.+]] = stream.tensor.import
// CHECK: %[[INIT:.+]] = stream.async.splat
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (!stream.resource<external>)
// CHECK-NEXT: %[[Y:.+]] = stream.async.dispatch.entry {{.+}}(%[[X]], %[[ACC]]) : {{.+}} -> %[[ACC]]{
// CHECK-NEXT: scf.yield %[[Y]]
func.func @main(%x: tensor<1048576xi32>, %n: index) -> tensor<1048576xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0> : tensor<1048576xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1048576xi32>) {
    %y = arith.addi %acc, %x : tensor<1048576xi32>
    scf.yield %y : tensor<1048576xi32>
  }
  return %r : tensor<1048576xi32>
}
