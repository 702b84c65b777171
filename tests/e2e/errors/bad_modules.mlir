// Truncated, corrupt, foreign and newer module files are rejected by name.
// RUN: ferry-compile %s -o %t.fvm
// RUN: head -c 40 %t.fvm > %t.truncated.fvm
// RUN: not ferry-run %t.truncated.fvm 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: ferry-run: error: {{.*}}truncated
// RUN: %python %S/../patch_bytes.py %t.fvm %t.corrupt.fvm 48=0x5a
// RUN: not ferry-run %t.corrupt.fvm 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: ferry-run: error: {{.*}}corrupt
// RUN: %python %S/../patch_bytes.py %t.fvm %t.newer.fvm 8=0x63
// RUN: not ferry-run %t.newer.fvm 2>&1 | FileCheck %s --check-prefix=NEWER
// NEWER: ferry-run: error: {{.*}}version 99 is newer
// RUN: not ferry-run %s 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: ferry-run: error: {{.*}}not a Ferry module
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
