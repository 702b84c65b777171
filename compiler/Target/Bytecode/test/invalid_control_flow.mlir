// Control flow the bytecode cannot express is named with its location, and
// no file is written. (A cf.switch, which the bytecode has no encoding for,
// is lowered to br.cond chains first: tests/e2e/control_flow_switch.mlir.)
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

