// Control flow the bytecode cannot express is named with its location; every
// bad function is reported and no file is written.
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm

// The initializer runs once, from the runtime.
// CHECK: invalid_control_flow.mlir:[[@LINE+5]]:3: error: calls the module initializer '@__init', which only the runtime may run
func.func @__init() {
  return
}
func.func @reinit() {
  call @__init() : () -> ()
  return
}

// Only cf.br and cf.cond_br have encodings.
// CHECK: invalid_control_flow.mlir:[[@LINE+5]]:3: error: 'cf.switch' cannot be serialized to a Ferry bytecode module
func.func @switch(%flag: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  cf.switch %flag : i32, [
    default: ^a,
    5: ^b,
    7: ^c
  ]
^a:
  return %c1 : i32
^b:
  return %c2 : i32
^c:
  return %c3 : i32
}
