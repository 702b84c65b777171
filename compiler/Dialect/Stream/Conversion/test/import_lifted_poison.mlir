// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Lifting a loop of blocks to scf yields `ub.poison` for the accumulator on
// the exit path (where the new value is never used) and passes it to an
// argument of the loop nothing uses. The unused argument goes, and the
// exit path gets a poison of its own, so an allocation made on that path
// rather than one captured from before the loop: a carried position that
// mixed a captured value with the program's own would leave its owner to
// run time (indeterminate).
// CHECK-LABEL: func.func @loop_exit_poison(
// CHECK: %[[INIT:.+]] = stream.async.fill
// CHECK-NOT: stream.async.alloca
// CHECK: scf.while (%{{.+}} = %{{.+}}, %{{.+}} = %[[INIT]]) : (i32, !stream.resource<*>) ->
// CHECK: scf.if %{{.+}} -> (i32, !stream.resource<*>, i32, i32) {
// CHECK-NEXT: %[[SIZE:.+]] = stream.tensor.sizeof tensor<4xi32>
// CHECK-NEXT: %[[P:.+]] = stream.async.alloca : !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT: scf.yield %{{.+}}, %[[P]], %{{.+}}, %{{.+}} :
func.func @loop_exit_poison(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  cf.br ^head(%zero, %init : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  %y = arith.addi %acc, %x : tensor<4xi32>
  %i1 = arith.addi %i, %one : i32
  cf.br ^head(%i1, %y : i32, tensor<4xi32>)
^exit:
  %v = tensor.extract %acc[%c0] : tensor<4xi32>
  return %v : i32
}
