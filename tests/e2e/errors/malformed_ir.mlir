// Malformed IR: the parser's message with file, line and column; no module
// file is left behind.
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm
// CHECK: malformed_ir.mlir:[[@LINE+2]]:{{[0-9]+}}: error: expected ','
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
