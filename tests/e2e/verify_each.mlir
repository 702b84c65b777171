// ferry-compile verifies the parsed input and the final IR; --verify-each
// (the default only in builds with assertions) verifies after every pass
// as well. The module is the same either way.
// RUN: ferry-compile --help | FileCheck %s --check-prefix=HELP
// HELP: --verify-each
// RUN: ferry-compile %s -o %t.once.fvm --verify-each=false --mlir-timing \
// RUN:   --mlir-timing-display=list 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: Verify
// RUN: ferry-compile %s -o %t.each.fvm --verify-each --mlir-timing \
// RUN:   --mlir-timing-display=list 2>&1 | FileCheck %s --check-prefix=EACH
// EACH-NOT: Verify
// RUN: cmp %t.once.fvm %t.each.fvm
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %a, %b : tensor<4xi32>
  %1 = arith.muli %0, %a : tensor<4xi32>
  return %1 : tensor<4xi32>
}
