// Slices through the whole pipeline to HAL: a tile made in part of a
// buffer is a queue fill or a dispatch binding at the tile's byte offset,
// and a slice read by a dispatch is its source bound at the slice's offset.
// RUN: ferry-opt %s --split-input-file --ferry-lower-to-hal | FileCheck %s

// Two tiles, a fill and a dispatch, made in their rows of one result.
// CHECK-LABEL: func.func @tiles(
// CHECK:         %[[OUT:.*]] = hal.device.queue.alloca{{.*}} : !hal.buffer{%c64}
// CHECK-NOT:     hal.device.queue.alloca
// CHECK:         hal.device.queue.fill<{{.*}}> {{.*}}target(%[[OUT]] : !hal.buffer) [%c0, %c32]
// CHECK:         hal.device.queue.dispatch.entry<{{.*}}> {{.*}}bindings(%{{.*}}, %[[OUT]]) offsets(%c0, %c32) lengths(%c32, %c32)
// CHECK-NOT:     hal.device.queue.copy
func.func @tiles(%a: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %one = arith.constant 1.0 : f32
  %t0e = tensor.empty() : tensor<2x4xf32>
  %t0 = linalg.fill ins(%one : f32) outs(%t0e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %d0 = tensor.insert_slice %t0 into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %t1e = tensor.empty() : tensor<2x4xf32>
  %t1 = linalg.copy ins(%a : tensor<2x4xf32>) outs(%t1e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %d1 = tensor.insert_slice %t1 into %d0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  return %d1 : tensor<4x4xf32>
}

// -----

// Rows 2 and 3 of the input, read in place by the dispatch.
// CHECK-LABEL: func.func @view(
// CHECK:         %[[A:.*]] = hal.buffer_view.buffer<%arg0
// CHECK-NOT:     hal.device.queue.copy
// CHECK:         hal.device.queue.dispatch.entry<{{.*}}> {{.*}}bindings(%[[A]], %{{.*}}) offsets(%c32, %c0) lengths(%c32, %c32)
// CHECK-NOT:     hal.device.queue.copy
func.func @view(%a: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %s = tensor.extract_slice %a[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.copy ins(%s : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
