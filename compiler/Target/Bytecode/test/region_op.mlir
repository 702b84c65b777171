// Ops with regions (structured control flow) have no bytecode form: control
// flow is branches between blocks (cf.br, cf.cond_br).
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s

// CHECK: region_op.mlir:[[@LINE+2]]:3: error: 'scf.if' has regions; a Ferry bytecode module holds control flow only as branches between blocks (cf.br, cf.cond_br)
func.func @conditional_wait(%cond: i1, %fence: !hal.fence) {
  scf.if %cond {
    hal.fence.await until([%fence])
  }
  return
}
