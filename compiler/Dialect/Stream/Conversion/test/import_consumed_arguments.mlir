// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s
// RUN: ferry-opt %s --split-input-file --convert-input-to-stream --stream-materialize-copy-on-write --stream-elide-async-copies | FileCheck %s --check-prefix=ELIDE

// An argument the host hands over (iree.abi.consume) is imported with
// `consume`: the program owns it from then on and, at its last use, may
// write it in place, so the fill needs no copy of it.
// CHECK-LABEL: func.func @fill
// CHECK-NOT: iree.abi.consume
// CHECK: %[[I:.+]] = stream.tensor.import consume %{{.+}} message("input 0")
// CHECK: stream.async.fill %{{.+}}, %[[I]]
// ELIDE-LABEL: func.func @fill
// ELIDE: %[[I:.+]] = stream.tensor.import consume
// ELIDE-NOT: stream.async.alloca
// ELIDE: stream.async.fill %{{.+}}, %[[I]]
func.func @fill(%x: tensor<?xi32> {iree.abi.consume}) -> tensor<?xi32> {
  %c = arith.constant 7 : i32
  %0 = linalg.fill ins(%c : i32) outs(%x : tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// A lent argument (no attribute) stays the host's: its import does not
// consume, and the fill writes a fresh buffer.
// CHECK-LABEL: func.func @lent
// CHECK: stream.tensor.import %{{.+}} message("input 0")
// ELIDE-LABEL: func.func @lent
// ELIDE: stream.tensor.import %{{.+}} message("input 0")
// ELIDE: %[[A:.+]] = stream.async.alloca
// ELIDE: stream.async.fill %{{.+}}, %[[A]]
func.func @lent(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c = arith.constant 7 : i32
  %0 = linalg.fill ins(%c : i32) outs(%x : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A consumed argument still read after the write keeps its copy.
// ELIDE-LABEL: func.func @read_after
// ELIDE: %[[I:.+]] = stream.tensor.import consume
// ELIDE: %[[A:.+]] = stream.async.alloca
// ELIDE: stream.async.fill %{{.+}}, %[[A]]
func.func @read_after(%x: tensor<3xi32> {iree.abi.consume}) -> (tensor<3xi32>, tensor<3xi32>) {
  %c = arith.constant 7 : i32
  %0 = linalg.fill ins(%c : i32) outs(%x : tensor<3xi32>) -> tensor<3xi32>
  return %0, %x : tensor<3xi32>, tensor<3xi32>
}
