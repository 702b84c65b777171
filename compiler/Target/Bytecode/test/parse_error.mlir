// Syntax errors carry file:line:col and leave no output file.
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm

func.func @typo(%x: index) -> index {
  // CHECK: parse_error.mlir:[[@LINE+1]]:8: error: custom op 'arith.addz' is unknown
  %y = arith.addz %x, %x : index
  return %y : index
}
