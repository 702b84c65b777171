// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --ferry-canonicalize --cse --stream-materialize-copy-on-write --stream-elide-async-copies --stream-reuse-operand-storage --stream-schedule-allocation --stream-form-execution-regions --stream-automatic-reference-counting 2>&1 | FileCheck %s

// Reference counting of loops written as cf blocks (lifted to an
// scf.while: one whose only exit is its header's test in the usual form,
// the test in the before region and the body in the after region) from
// tensor input through ferry-compile's passes.

// The body passes its accumulator to an external function that may keep
// it (no `nosideeffects`) and to an inner scf.for that writes it in place
// or not at all; the for's result goes on as the next accumulator. The
// body passes it on under the inner position's flag and frees it
// (release first: the callee may keep it) only where that flag says the
// for made a new one. A callee that may keep a buffer holds a reference,
// not an owner, so nothing is indeterminate (it was: "it may be what a
// position it was lent to holds, and it is passed on or kept elsewhere
// too", random seed 686).
// CHECK-NOT: indeterminate
// CHECK-LABEL: func.func @main(
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: } do {
// CHECK: stream.cmd.call @Double.function
// CHECK: scf.for
// CHECK: %[[GO:.+]] = scf.if
// CHECK-NEXT: stream.resource.release
// CHECK: stream.resource.dealloca origin if(%[[GO]])
// CHECK: scf.yield
// CHECK-NOT: indeterminate
func.func private @Double.function(tensor<5x3x3xi32>, tensor<5x3x3xi32>) -> (tensor<5x3x3xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func @main(%arg1: tensor<5x3x3xi8>, %arg2: tensor<5x3x3xi32>, %arg3: i8) -> (tensor<5x3x3xi8>) {
  %t10 = arith.addi %arg2, %arg2 : tensor<5x3x3xi32>
  %t5 = arith.addi %arg1, %arg1 : tensor<5x3x3xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : i8
  %masked = arith.andi %arg3, %c3 : i8
  %n = arith.index_cast %masked : i8 to index
  cf.br ^head(%c0, %arg1, %t10 : index, tensor<5x3x3xi8>, tensor<5x3x3xi32>)
^head(%i: index, %acc21: tensor<5x3x3xi8>, %acc22: tensor<5x3x3xi32>):
  %done = arith.cmpi sge, %i, %n : index
  cf.cond_br %done, ^exit(%acc21, %acc22 : tensor<5x3x3xi8>, tensor<5x3x3xi32>), ^body
^body:
  %e = tensor.empty() : tensor<5x3x3xi32>
  %doubled = func.call @Double.function(%acc22, %e) : (tensor<5x3x3xi32>, tensor<5x3x3xi32>) -> tensor<5x3x3xi32>
  %inner = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %acc22) -> (tensor<5x3x3xi32>) {
    %low = arith.minsi %doubled, %acc22 : tensor<5x3x3xi32>
    %next = arith.muli %acc, %low : tensor<5x3x3xi32>
    scf.yield %next : tensor<5x3x3xi32>
  }
  %squared = arith.muli %acc21, %acc21 : tensor<5x3x3xi8>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^head(%i1, %squared, %inner : index, tensor<5x3x3xi8>, tensor<5x3x3xi32>)
^exit(%l41: tensor<5x3x3xi8>, %l42: tensor<5x3x3xi32>):
  return %t5 : tensor<5x3x3xi8>
}

// -----

// The body lends its first accumulator to an inner scf.while that may run
// no iteration, whose positions start from a constant made before the
// loop and from that accumulator: the inner results, owned where the inner
// loop ran and lent where it did not, go on as the next accumulators. In
// the rotated form lifting makes, the accumulator left the iteration at two
// positions, one per branch of the exit test's scf.if (the exit passing it
// on at its own, the body at the other's through the inner loop), and its
// owner was left to the run time ("carried position 1 (after region) of
// 'scf.while' does not own it", random seed 1121). In the usual form it
// leaves at one, under the inner position's owned flag.
// CHECK-NOT: indeterminate
// CHECK-LABEL: func.func @lent_to_inner_while(
// CHECK: scf.while
// CHECK: scf.condition
// CHECK: } do {
// CHECK: scf.while
// CHECK: } do {
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK-NOT: indeterminate
func.func @lent_to_inner_while(%x: tensor<5xi8>, %n: index, %m: i32) -> tensor<5xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32
  %t34 = arith.constant dense<-104> : tensor<5xi8>
  cf.br ^head(%c0, %x, %t34 : index, tensor<5xi8>, tensor<5xi8>)
^head(%i: index, %a: tensor<5xi8>, %b: tensor<5xi8>):
  %stop = arith.cmpi sge, %i, %n : index
  cf.cond_br %stop, ^exit(%a, %b : tensor<5xi8>, tensor<5xi8>), ^body
^body:
  %w:3 = scf.while (%wb0 = %t34, %wb1 = %a, %k = %k0) : (tensor<5xi8>, tensor<5xi8>, i32) -> (tensor<5xi8>, tensor<5xi8>, i32) {
    %more = arith.cmpi slt, %k, %m : i32
    scf.condition(%more) %wb0, %wb1, %k : tensor<5xi8>, tensor<5xi8>, i32
  } do {
  ^bb0(%v0: tensor<5xi8>, %v1: tensor<5xi8>, %kk: i32):
    %t55 = arith.subi %v1, %v1 : tensor<5xi8>
    %t63 = arith.muli %v0, %v1 : tensor<5xi8>
    %k2 = arith.addi %kk, %k1 : i32
    scf.yield %t63, %t55, %k2 : tensor<5xi8>, tensor<5xi8>, i32
  }
  %i1 = arith.addi %i, %c1 : index
  cf.br ^head(%i1, %w#0, %w#1 : index, tensor<5xi8>, tensor<5xi8>)
^exit(%ra: tensor<5xi8>, %rb: tensor<5xi8>):
  %s = arith.addi %ra, %rb : tensor<5xi8>
  return %s : tensor<5xi8>
}
