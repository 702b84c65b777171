// Verifier errors carry file:line:col and leave no output file.
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm

// CHECK: invalid_ir.mlir:[[@LINE+2]]:3: error: 'hal.device.queue.dispatch' op unknown built-in kernel 'div'
func.func @bad_kernel(%d: !hal.device, %f: !hal.fence, %n: index, %a: !hal.buffer, %b: !hal.buffer, %o: !hal.buffer) {
  hal.device.queue.dispatch<%d : !hal.device> signal(%f) kernel("div") type(i32) count(%n) bindings(%a, %b, %o)
  return
}
