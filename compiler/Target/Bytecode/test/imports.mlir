// External functions become the module's import table and calls become
// call.import; the seed example compiles verbatim.
// RUN: ferry-compile %samples/tied_external_calls.mlir -o %t.fvm
// RUN: strings %t.fvm | FileCheck %s
// CHECK-DAG: Double.function
// CHECK-DAG: Triple.function
// CHECK-DAG: main

// A call to a function with a body is not an import: it becomes `call`
// (internal_call.mlir), and the module still loads.
// RUN: ferry-compile %s -o %t2.fvm
// RUN: strings %t2.fvm | FileCheck %s --check-prefix=INTERNAL
// INTERNAL-DAG: helper
// INTERNAL-DAG: main
func.func private @helper(%a: index) -> index {
  return %a : index
}
func.func @main(%a: index) -> index {
  %0 = call @helper(%a) : (index) -> index
  return %0 : index
}
