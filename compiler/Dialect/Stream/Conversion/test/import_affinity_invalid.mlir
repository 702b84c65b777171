// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --verify-diagnostics

// An affinity must name a declared device (at import, before anything
// changes): each one that does not is reported where it is written.
hal.device.global @a = #hal.device.target<"local", {}>
// expected-error @+1 {{'stream.affinity' names device @b, which the module does not declare (no hal.device.global @b); it declares @a}}
func.func @undeclared(%x: tensor<4xi32>) -> tensor<4xi32> attributes {stream.affinity = #hal.device.affinity<@b>} {
  // expected-error @+1 {{'stream.affinity' names device @c, which the module does not declare (no hal.device.global @c); it declares @a}}
  %0 = arith.addi %x, %x {stream.affinity = #hal.device.affinity<@c>} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// With no device declared at all.
// expected-error @+1 {{'stream.affinity' names device @gpu, which the module does not declare (no hal.device.global @gpu); it declares no device}}
func.func @none_declared(%x: tensor<4xi32> {stream.affinity = #hal.device.affinity<@gpu>}) -> tensor<4xi32> {
  return %x : tensor<4xi32>
}
