// A device no hal.device.global declares is an error naming it, at the
// affinity that names it; ferry-compile used to crash looking up its links.
// RUN: split-file %s %t
// RUN: not ferry-compile %t/undeclared.mlir -o %t.fvm 2>&1 | FileCheck %s --check-prefix=UNDECLARED --implicit-check-not=error:
// UNDECLARED: undeclared.mlir:6:8: error: 'stream.affinity' names device @b, which the module does not declare (no hal.device.global @b); it declares @a
// RUN: not ferry-compile %t/none.mlir -o %t.fvm 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=error:
// NONE: none.mlir:2:1: error: 'stream.affinity' names device @gpu, which the module does not declare (no hal.device.global @gpu); it declares no device

//--- undeclared.mlir
hal.device.global @a = #hal.device.target<"local", {}>
func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@a>} {
  %0 = arith.addi %x, %y : tensor<4xi32>
  // Placed on a device the module never declares.
  %1 = arith.muli %0, %0 {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
  return %1 : tensor<4xi32>
}

//--- none.mlir
// No device declared at all.
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@gpu>} {
  %0 = arith.addi %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}
