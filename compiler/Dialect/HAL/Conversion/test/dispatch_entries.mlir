// Dispatches of native executables through the whole pipeline: the `outs`
// operand is written in place (tied), copy-on-write copies it only when
// something else still sees it, allocation scheduling and reference counting
// treat the dispatch like every tied op, and the HAL lowering passes every
// binding whole (offset 0, its size as the length).
// RUN: ferry-opt %s --split-input-file --ferry-lower-to-hal | FileCheck %s

// A tensor.empty destination: one alloca, written in place by one dispatch
// (dispatch formation fuses the fill, the matmul and the bias + ReLU generic
// that only reads it) and returned: no intermediate, no fill, no copy.
// CHECK-LABEL: func.func @mlp(
// CHECK:         %[[M:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK:         %[[A:.*]] = hal.buffer_view.buffer<%arg0
// CHECK:         %[[W:.*]] = hal.buffer_view.buffer<%arg1
// CHECK:         %[[B:.*]] = hal.buffer_view.buffer<%arg2
// CHECK:         %[[SIZE:.*]] = arith.muli %[[M]], %c128
// CHECK:         %[[OUT:.*]] = hal.device.queue.alloca{{.*}} : !hal.buffer{%[[SIZE]]}
// CHECK-NOT:     hal.device.queue.fill
// CHECK:         hal.device.queue.dispatch.entry<{{.*}}> wait({{.*}}) signal({{.*}}) entry(@mlp_dispatch_0::@mlp_dispatch_0) workgroups({{.*}}) push_constants(%[[M]], %[[M]]) bindings(%[[OUT]], %[[A]], %[[W]], %[[B]]) offsets(%c0, %c0, %c0, %c0) lengths(%[[SIZE]], {{.*}}, %c8192, %c128)
// CHECK-NOT:     hal.device.queue.dispatch.entry
// CHECK-NOT:     hal.device.queue.copy
// CHECK:         hal.buffer_view.create buffer(%[[OUT]] : !hal.buffer)
func.func @mlp(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  %e2 = tensor.empty(%n) : tensor<?x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<?x32xf32>, tensor<32xf32>) outs(%e2 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// The destination is the host's argument, which the program may not write:
// it is copied first and the copy written in place.
// CHECK-LABEL: func.func @accumulate(
// CHECK:         %[[C:.*]] = hal.buffer_view.buffer<%arg2
// CHECK:         %[[COPY:.*]] = hal.device.queue.alloca
// CHECK:         hal.device.queue.copy<{{.*}}> {{.*}}source(%[[C]]{{.*}}target(%[[COPY]]
// CHECK:         hal.device.queue.dispatch.entry<{{.*}}> {{.*}} entry(@accumulate_dispatch_0::@accumulate_dispatch_0) workgroups(%c1, %c1, %c1) push_constants() bindings(%{{.*}}, %{{.*}}, %[[COPY]])
func.func @accumulate(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
