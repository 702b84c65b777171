// RUN: timeout 60 ferry-opt %s --split-input-file --ferry-canonicalize | FileCheck %s
// Upstream --canonicalize never returns on either function
// (llvm/llvm-project#159743); `timeout` turns a hang into a failure.

// A condition that folds to false leaves the loop unreachable: it is erased
// rather than merged into itself.
// CHECK-LABEL: func.func private @folded_compare
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func private @folded_compare(%arg0: i16) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %0 = arith.extui %arg0 : i16 to i64
  %1 = arith.cmpi ugt, %0, %0 : i64
  cf.cond_br %1, ^bb1(%c0 : i64), ^bb4
^bb1(%2: i64):
  %3 = arith.cmpi sge, %2, %c0 : i64
  cf.cond_br %3, ^bb3, ^bb2
^bb2:
  %4 = arith.addi %2, %c1 : i64
  cf.br ^bb1(%4 : i64)
^bb3:
  return
^bb4:
  return
}

// -----

// The same through truth propagation: under the false edge of a branch on
// %b, a branch on `%b != true` is decided, and its loop is unreachable.
// CHECK-LABEL: func.func private @truth_propagation
// CHECK-NOT: arith.addi
// CHECK: return
func.func private @truth_propagation(%b: i1, %n: i64) -> i64 {
  %true = arith.constant true
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  cf.cond_br %b, ^done(%n : i64), ^other
^other:
  %nb = arith.cmpi ne, %b, %true : i1
  cf.cond_br %nb, ^done(%c0 : i64), ^loop(%n : i64)
^loop(%i: i64):
  %stop = arith.cmpi sge, %i, %c0 : i64
  cf.cond_br %stop, ^done(%i : i64), ^latch
^latch:
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done(%r: i64):
  return %r : i64
}

// -----

// Otherwise it canonicalizes as --canonicalize does: the constant branch
// goes, the reachable loop stays.
// CHECK-LABEL: func.func private @reachable_loop
// CHECK: arith.addi
// CHECK: cf.br
func.func private @reachable_loop(%n: i64) -> i64 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i64
  cf.cond_br %true, ^loop(%n : i64), ^done(%n : i64)
^loop(%i: i64):
  %stop = arith.cmpi sge, %i, %n : i64
  cf.cond_br %stop, ^done(%i : i64), ^latch
^latch:
  %next = arith.addi %i, %c1 : i64
  cf.br ^loop(%next : i64)
^done(%r: i64):
  return %r : i64
}
