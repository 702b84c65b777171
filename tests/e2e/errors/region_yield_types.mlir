// A region whose yielded tensor type differs from the type it carries is a
// compile error naming the op and both types, for each region kind: an
// scf.for iter_arg, an scf.while's after region, an scf.if's branches and a
// loop of blocks (cf.br to a block argument); ferry-compile writes nothing.
// RUN: rm -rf %t && split-file %s %t
// RUN: not ferry-compile %t/for.mlir -o %t/for.fvm 2>&1 | FileCheck %s --check-prefix=FOR --implicit-check-not=error:
// RUN: not test -e %t/for.fvm
// FOR: for.mlir:5:8: error: 'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'tensor<4xi32>' != 'tensor<8xi32>'
// RUN: not ferry-compile %t/while.mlir -o %t/while.fvm 2>&1 | FileCheck %s --check-prefix=WHILE --implicit-check-not=error:
// RUN: not test -e %t/while.fvm
// WHILE: while.mlir:4:8: error: 'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'tensor<4xf32>' should match successor input type #0 'tensor<4xi32>'
// RUN: not ferry-compile %t/if.mlir -o %t/if.fvm 2>&1 | FileCheck %s --check-prefix=IF --implicit-check-not=error:
// RUN: not test -e %t/if.fvm
// IF: if.mlir:3:8: error: 'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'tensor<?xi32>' should match successor input type #0 'tensor<4xi32>'
// RUN: not ferry-compile %t/blocks.mlir -o %t/blocks.fvm 2>&1 | FileCheck %s --check-prefix=BLOCKS --implicit-check-not=error:
// RUN: not test -e %t/blocks.fvm
// BLOCKS: blocks.mlir:9:3: error: type mismatch for bb argument #1 of successor #0

//--- for.mlir
func.func @main(%a: tensor<4xi32>, %b: tensor<8xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Yields the 8-element tensor where it carries a 4-element one.
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xi32>) {
    scf.yield %b : tensor<8xi32>
  }
  return %r : tensor<4xi32>
}

//--- while.mlir
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>, %limit: i32) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  // The after region yields f32 where the loop carries i32.
  %r = scf.while (%v = %a) : (tensor<4xi32>) -> tensor<4xi32> {
    %first = tensor.extract %v[%c0] : tensor<4xi32>
    %go = arith.cmpi slt, %first, %limit : i32
    scf.condition(%go) %v : tensor<4xi32>
  } do {
  ^bb0(%w: tensor<4xi32>):
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xi32>
}

//--- if.mlir
func.func @main(%a: tensor<4xi32>, %b: tensor<?xi32>, %c: i1) -> tensor<4xi32> {
  // The else branch yields a dynamic shape where the if has a static one.
  %r = scf.if %c -> tensor<4xi32> {
    scf.yield %a : tensor<4xi32>
  } else {
    scf.yield %b : tensor<?xi32>
  }
  return %r : tensor<4xi32>
}

//--- blocks.mlir
func.func @main(%a: tensor<4xi32>, %b: tensor<8xi32>, %n: i32) -> tensor<4xi32> {
  %zero = arith.constant 0 : i32
  cf.br ^head(%zero, %a : i32, tensor<4xi32>)
^head(%i: i32, %acc: tensor<4xi32>):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit, ^body
^body:
  // Passes the 8-element tensor where the loop carries a 4-element one.
  cf.br ^head(%i, %b : i32, tensor<8xi32>)
^exit:
  return %acc : tensor<4xi32>
}
