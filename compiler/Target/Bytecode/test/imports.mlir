// External functions become the module's import table and calls become
// call.import; the seed example compiles verbatim.
// RUN: ferry-compile %samples/tied_external_calls.mlir -o %t.fvm
// RUN: strings %t.fvm | FileCheck %s
// CHECK-DAG: Double.function
// CHECK-DAG: Triple.function
// CHECK-DAG: main

// A call to a function with a body is not an import.
// RUN: not ferry-compile %s -o %t2.fvm 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: calls 'helper', which is not an external function
func.func private @helper(%a: index) -> index {
  return %a : index
}
func.func @main(%a: index) -> index {
  %0 = call @helper(%a) : (index) -> index
  return %0 : index
}
