// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// Lifting yields `ub.poison` on the paths that never use a value. A loop of
// blocks that exits from the middle of its body with a value it made there
// passes that value out in a carried position of its own, and a poison
// for it on the path that goes on (here the value is also an operand of an
// op that may write it in place, so that path cannot pass it instead: see
// import_lifted_loops.mlir). The poison gets a copy of its own right
// before its user, so an allocation that path makes rather than one
// captured from before the loop: a carried position that mixed a captured
// value with the program's own would leave its owner to run time
// (indeterminate).
// CHECK-LABEL: func.func @loop_exit_poison(
// CHECK-NOT: stream.async.alloca
// CHECK: scf.while
// CHECK: scf.if %{{.+}} -> (i32, !stream.resource<external>, i32) {
// CHECK-NOT: stream.async.alloca
// CHECK: } else {
// CHECK: %[[T:.+]] = stream.async.dispatch.entry
// CHECK: stream.async.dispatch.entry {{.+}}(%[[T]],
// CHECK: scf.if %{{.+}} -> (i32, !stream.resource<external>, i32) {
// CHECK-NEXT: scf.yield %{{.+}}, %[[T]], %{{.+}} :
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[SIZE:.+]] = stream.tensor.sizeof tensor<4xi32>
// CHECK-NEXT: %[[P:.+]] = stream.async.alloca : !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT: scf.yield %{{.+}}, %[[P]], %{{.+}} :
func.func @loop_exit_poison(%x: tensor<4xi32>, %n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  cf.br ^head(%zero : i32)
^head(%i: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%x : tensor<4xi32>), ^body
^body:
  %t = arith.muli %x, %x : tensor<4xi32>
  %w = arith.addi %t, %x : tensor<4xi32>
  %e = tensor.extract %w[%c0] : tensor<4xi32>
  %big = arith.cmpi sgt, %e, %n : i32
  %i1 = arith.addi %i, %one : i32
  cf.cond_br %big, ^exit(%t : tensor<4xi32>), ^head(%i1 : i32)
^exit(%r: tensor<4xi32>):
  %v = tensor.extract %r[%c0] : tensor<4xi32>
  return %v : i32
}
