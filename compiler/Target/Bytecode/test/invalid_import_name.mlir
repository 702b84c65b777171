// An external function binds at run time to function `function` of native
// module `Module` only when it is named `Module.function`; any other name is
// refused at compile time, where the runtime's loader would refuse the
// module. No output file is left behind.
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: not ferry-compile %t/no_dot.mlir -o %t/no_dot.fvm 2>&1 | FileCheck %s --check-prefix=NO-DOT
// RUN: not test -e %t/no_dot.fvm
// RUN: not ferry-compile %t/empty_module.mlir -o %t/empty_module.fvm 2>&1 | FileCheck %s --check-prefix=EMPTY-MODULE
// RUN: not ferry-compile %t/empty_function.mlir -o %t/empty_function.fvm 2>&1 | FileCheck %s --check-prefix=EMPTY-FUNCTION
// RUN: ferry-compile %t/two_dots.mlir -o %t/two_dots.fvm
// RUN: ferry-dump %t/two_dots.fvm | FileCheck %s --check-prefix=TWO-DOTS

//--- no_dot.mlir
// NO-DOT: no_dot.mlir:[[@LINE+1]]:1: error: external function 'double' needs a name of the form 'module.function' (e.g. @Double.function, which the runtime binds to function 'function' of native module 'Double')
func.func private @double(tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.model = "coarse-fences"}
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = call @double(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

//--- empty_module.mlir
// EMPTY-MODULE: empty_module.mlir:[[@LINE+1]]:1: error: external function '.double' needs a name of the form 'module.function'
func.func private @".double"(index) -> index
func.func @main(%x: index) -> index {
  %0 = call @".double"(%x) : (index) -> index
  return %0 : index
}

//--- empty_function.mlir
// EMPTY-FUNCTION: empty_function.mlir:[[@LINE+1]]:1: error: external function 'Double.' needs a name of the form 'module.function'
func.func private @"Double."(index) -> index
func.func @main(%x: index) -> index {
  %0 = call @"Double."(%x) : (index) -> index
  return %0 : index
}

//--- two_dots.mlir
// The module name ends at the first '.'.
// TWO-DOTS: [0] @Double.function.v2(i64) -> (i64)
func.func private @Double.function.v2(index) -> index
func.func @main(%x: index) -> index {
  %0 = call @Double.function.v2(%x) : (index) -> index
  return %0 : index
}
