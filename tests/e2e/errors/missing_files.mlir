// Missing input files name the path and the reason.
// RUN: not ferry-compile %t.does-not-exist.mlir -o %t.fvm 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not ferry-run %t.does-not-exist.fvm 2>&1 | FileCheck %s --check-prefix=RUNTOOL
// COMPILE: error: cannot open '{{.*}}does-not-exist.mlir': No such file or directory
// RUNTOOL: {{^}}ferry-run: error: {{.*}}does-not-exist.fvm{{.*}}No such file or directory
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  return %a : tensor<4xi32>
}
