// RUN: ferry-opt --split-input-file --convert-input-to-stream --verify-diagnostics %s | FileCheck %s

// Each linalg op becomes an executable of its own (a nested module marked
// ferry.executable) and a dispatch of it written into its `outs` operand;
// a tensor.empty destination is a fresh alloca, never a copy.

// CHECK-LABEL: module @matmul_dispatch_0 attributes {ferry.executable}
// CHECK:         func.func @matmul_dispatch_0(%{{.*}}: tensor<?x64xf32>, %{{.*}}: tensor<64x32xf32>, %{{.*}}: tensor<?x32xf32>) -> tensor<?x32xf32>
// CHECK:           linalg.matmul
// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[M:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK:         %[[A:.*]] = stream.tensor.import %arg0
// CHECK:         %[[B:.*]] = stream.tensor.import %arg1
// CHECK:         %[[DEST:.*]] = stream.async.alloca
// CHECK-NOT:     stream.async.clone
// CHECK:         %[[X:.*]] = arith.ceildivui %[[M]], %c8
// CHECK:         %[[R:.*]] = stream.async.dispatch.entry @matmul_dispatch_0::@matmul_dispatch_0 workgroups(%[[X]], %c1, %c1) push_constants(%[[M]], %[[M]]) (%[[A]], %[[B]], %[[DEST]]) : ({{.*}}) -> %[[DEST]]{{{.*}}}
// CHECK:         stream.tensor.export %[[R]]
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%m) : tensor<?x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// -----

// Operands whose dims map to the same loop are checked at run time when
// they are different values; a scalar constant used in the body goes into
// the executable with it.

// CHECK-LABEL: module @add_dispatch_0
// CHECK:         func.func @add_dispatch_0
// CHECK:           arith.constant 2.0
// CHECK:           linalg.generic
// CHECK-LABEL: func.func @add(
// CHECK:         %[[N0:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK:         %[[N1:.*]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view> [0]
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[N0]], %[[N1]]
// CHECK:         cf.assert %[[SAME]], "operands of 'linalg.generic' at {{.*}}import_linalg.mlir:{{[0-9]+}}:{{[0-9]+}} differ in the extent of loop 0"
// CHECK:         %[[R:.*]] = stream.async.dispatch.entry @add_dispatch_0::@add_dispatch_0 workgroups({{.*}}) push_constants(%[[N0]], %[[N1]]) ({{.*}}, %[[OUT:.*]]) : ({{.*}}) -> %[[OUT]]{{{.*}}}
#id = affine_map<(d0) -> (d0)>
func.func @add(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%out : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %two : f32
    %t = arith.addf %s, %o : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @conv(%i: tensor<1x8x8x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' is not supported by Ferry}}
  %r = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

func.func @not_a_permutation(%a: tensor<8xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'linalg.generic' has indexing map affine_map<(d0) -> (d0 * 2)>; only projected permutations are supported}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @body_op(%a: tensor<4xf32>, %o: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tensor.extract' in the body of 'linalg.generic' is not supported: bodies may use arith and math ops only}}
    %e = tensor.extract %t[%c0] : tensor<4xf32>
    linalg.yield %e : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @captured(%a: tensor<?xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %i = arith.index_cast %d : index to i64
  %s = arith.sitofp %i : i64 to f32
  // expected-error @+1 {{'linalg.generic' uses a value defined outside it that is not a constant; only constants may be}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Elementwise arith/math on whole tensors that no built-in kernel covers
// becomes a linalg.generic into a fresh alloca, dispatched the same way.
// CHECK-LABEL: module @divexp_dispatch_0
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK-LABEL: module @divexp_dispatch_1
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK-LABEL: func.func @divexp(
// CHECK:         %[[E:.*]] = stream.async.alloca
// CHECK:         %[[D:.*]] = stream.async.dispatch.entry @divexp_dispatch_0::@divexp_dispatch_0 {{.*}} -> %[[E]]
// CHECK:         %[[E2:.*]] = stream.async.alloca
// CHECK:         stream.async.dispatch.entry @divexp_dispatch_1::@divexp_dispatch_1 {{.*}}(%[[D]], %[[E2]]) {{.*}} -> %[[E2]]
func.func @divexp(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.divf %a, %b : tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @divide(%a: tensor<4xi32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xi32>) outs(%o : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32):
    // expected-error @+1 {{'arith.divsi' in the body of 'linalg.generic' is not supported: integer division in a native kernel would trap on a zero divisor}}
    %d = arith.divsi %y, %x : i32
    linalg.yield %d : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @divide_tensors(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'arith.divsi' is not supported by Ferry}}
  %0 = arith.divsi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
