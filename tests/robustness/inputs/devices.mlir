// Affinities naming devices the module does not declare (ferry-compile
// once crashed looking up their links).

// One declared device, one not.
hal.device.global @a = #hal.device.target<"local", {}>
func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@a>} {
  %0 = arith.addi %x, %y : tensor<4xi32>
  %1 = arith.muli %0, %0 {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// No device declared at all, on a function and an argument.
func.func @main(%x: tensor<4xi32> {stream.affinity = #hal.device.affinity<@a>}, %y: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@a>} {
  %0 = arith.addi %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}
