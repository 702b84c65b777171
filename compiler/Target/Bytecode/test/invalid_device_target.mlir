// A device target names a backend; a module for a backend Ferry's runtime
// does not have would silently run on the local CPU, so it is refused with
// the backends Ferry has, and no module is written. Earlier phases still
// compile such targets (the topology passes reason about any backend).
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL

// CHECK: invalid_device_target.mlir:[[@LINE+3]]:3: error: device @gpu targets backend 'cuda', which Ferry does not have; Ferry's backends: 'local' (drivers local-sync, local-task, local-discrete, local-isolated)
// HAL: hal.device.global @gpu = #hal.device.target<"cuda"
module {
  hal.device.global @gpu = #hal.device.target<"cuda", {}>
  func.func @main(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@gpu>} {
    %0 = arith.addi %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}
