// RUN: ferry-opt --split-input-file --convert-input-to-stream --verify-diagnostics %s | FileCheck %s

// Each linalg op becomes an executable of its own (a nested module marked
// ferry.executable) and a dispatch of it written into its `outs` operand;
// a tensor.empty destination is a fresh alloca, never a copy. A matmul of
// unknown rows takes 128 rows a workgroup (TileAndVectorize.h).

// CHECK-LABEL: module @matmul_dispatch_0 attributes {ferry.executable}
// CHECK:         func.func @matmul_dispatch_0(%{{.*}}: tensor<?x64xf32>, %{{.*}}: tensor<64x32xf32>, %{{.*}}: tensor<?x32xf32>) -> (tensor<?x32xf32> {ferry.destination = {{[0-9]+}} : i64})
// CHECK:           linalg.matmul
// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[M:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [0]
// CHECK:         %[[A:.*]] = stream.tensor.import %arg0
// CHECK:         %[[B:.*]] = stream.tensor.import %arg1
// CHECK:         %[[DEST:.*]] = stream.async.alloca
// CHECK-NOT:     stream.async.clone
// CHECK:         %[[X:.*]] = arith.ceildivui %[[M]], %c128
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

// A convolution indexes its input with sums of loops (d1 * 2 + d4): with
// static shapes the linalg verifier checked the window fits, so there is
// no run-time check; the result is written into its `outs` operand.
// CHECK-LABEL: module @conv_dispatch_0
// CHECK:         func.func @conv_dispatch_0(%{{.*}}: tensor<1x9x9x3xf32>, %{{.*}}: tensor<3x3x3x4xf32>, %{{.*}}: tensor<1x4x4x4xf32>) -> (tensor<1x4x4x4xf32> {ferry.destination = {{[0-9]+}} : i64})
// CHECK:           linalg.conv_2d_nhwc_hwcf
// CHECK-LABEL: func.func @conv(
// CHECK-NOT:     cf.assert
// CHECK:         %[[O:.*]] = stream.tensor.import %arg2
// CHECK-NOT:     cf.assert
// CHECK:         stream.async.dispatch.entry @conv_dispatch_0::@conv_dispatch_0 {{.*}}(%{{.*}}, %{{.*}}, %[[O]]) : ({{.*}}) -> %[[O]]{{{.*}}}
func.func @conv(%i: tensor<1x9x9x3xf32>, %f: tensor<3x3x3x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// With dynamic sizes the program checks, before the dispatch, that the
// input holds the window's last element: (OH - 1) * 2 + (KH - 1) * 3 < H,
// unless a loop of the sum is empty.
// CHECK-LABEL: func.func @conv_dynamic(
// CHECK-DAG:     %[[H:.*]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view> [1]
// CHECK-DAG:     %[[KH:.*]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view> [0]
// CHECK-DAG:     %[[OH:.*]] = hal.buffer_view.dim<%arg2 : !hal.buffer_view> [1]
// CHECK:         %[[OH1:.*]] = arith.subi %[[OH]], %c1
// CHECK:         %[[A:.*]] = arith.muli %[[OH1]], %c2
// CHECK:         %[[KH1:.*]] = arith.subi %[[KH]], %c1
// CHECK:         %[[B:.*]] = arith.muli %[[KH1]], %c3
// CHECK:         %[[LAST:.*]] = arith.addi %[[A]], %[[B]]
// CHECK:         arith.cmpi slt, %[[LAST]], %[[H]]
// CHECK:         arith.cmpi eq, %[[OH]], %c0
// CHECK:         arith.cmpi eq, %[[KH]], %c0
// CHECK:         cf.assert %{{.*}}, "operand 0 of 'linalg.conv_2d_nhwc_hwcf' at {{.*}}import_linalg.mlir:{{[0-9]+}}:{{[0-9]+}} is too small in dimension 1 for the window the loops read"
// CHECK:         cf.assert %{{.*}}, "operand 0 of 'linalg.conv_2d_nhwc_hwcf' {{.*}} is too small in dimension 2 for the window the loops read"
// CHECK:         stream.async.dispatch.entry @conv_dynamic_dispatch_0::@conv_dynamic_dispatch_0
func.func @conv_dynamic(%i: tensor<1x?x?x3xf32>, %f: tensor<?x?x3x4xf32>, %o: tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<3> : tensor<2xi64>} ins(%i, %f : tensor<1x?x?x3xf32>, tensor<?x?x3x4xf32>) outs(%o : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
  return %r : tensor<1x?x?x4xf32>
}

// -----

// The window operand of pooling only shapes the window loops: a static one
// is made inside the executable, not a binding, and the program allocates
// nothing for it.
// CHECK-LABEL: module @pool_dispatch_0
// CHECK:         func.func @pool_dispatch_0(%{{.*}}: tensor<1x8x8x3xf32>, %[[OUT:.*]]: tensor<1x4x4x3xf32>) -> (tensor<1x4x4x3xf32> {ferry.destination = {{[0-9]+}} : i64})
// CHECK:           %[[W:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK:           linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%[[OUT]]
// CHECK-LABEL: func.func @pool(
// CHECK:         stream.tensor.import %arg0
// CHECK:         %[[O:.*]] = stream.tensor.import %arg1
// CHECK-NOT:     stream.async.alloca
// CHECK:         stream.async.dispatch.entry @pool_dispatch_0::@pool_dispatch_0 {{.*}}(%{{.*}}, %[[O]]) : ({{.*}}) -> %[[O]]{{{.*}}}
func.func @pool(%i: tensor<1x8x8x3xf32>, %o: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%i, %w : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %r : tensor<1x4x4x3xf32>
}

// -----

// A window of dynamic size stays a binding (a tiny alloca of KH x KW).
// CHECK-LABEL: func.func @pool_dynamic_window(
// CHECK:         %[[W:.*]] = stream.async.alloca
// CHECK:         stream.async.dispatch.entry @pool_dynamic_window_dispatch_0::@pool_dynamic_window_dispatch_0 {{.*}}(%{{.*}}, %[[W]], %{{.*}})
func.func @pool_dynamic_window(%i: tensor<1x8x8x3xf32>, %o: tensor<1x4x4x3xf32>, %k: index) -> tensor<1x4x4x3xf32> {
  %w = tensor.empty(%k, %k) : tensor<?x?xf32>
  %r = linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%i, %w : tensor<1x8x8x3xf32>, tensor<?x?xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %r : tensor<1x4x4x3xf32>
}

// -----

func.func @not_monotone(%a: tensor<4xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'linalg.generic' has indexing map affine_map<(d0) -> (d0 floordiv 2)>; only loops and sums of loops times non-negative constants (plus a non-negative constant) are supported}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @body_op(%a: tensor<4xf32>, %o: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tensor.from_elements' in the body of 'linalg.generic' is not supported: bodies may use arith and math ops, and tensor.extract of a tensor defined outside it}}
    %f = tensor.from_elements %x : tensor<1xf32>
    %e = tensor.extract %f[%c0] : tensor<1xf32>
    linalg.yield %e : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @captured(%a: tensor<?xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xf32>
  %i = arith.index_cast %d : index to i64
  %s = arith.trunci %i : i64 to i4
  // expected-error @+1 {{'linalg.generic' uses a value of type 'i4' defined outside it; only constants, tensors (read by tensor.extract) and scalars of index or the element types of tensors may be}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %w = arith.extsi %s : i4 to i32
    %f = arith.sitofp %w : i32 to f32
    %m = arith.mulf %x, %f : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Elementwise arith/math on whole tensors that no built-in kernel covers
// becomes a linalg.generic into a fresh alloca; a chain of them is merged
// into one generic (dispatch formation), dispatched the same way.
// CHECK-LABEL: module @divexp_dispatch_0
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK:           math.exp
// CHECK-NOT:     module @divexp_dispatch_1
// CHECK-LABEL: func.func @divexp(
// CHECK:         %[[E:.*]] = stream.async.alloca
// CHECK:         stream.async.dispatch.entry @divexp_dispatch_0::@divexp_dispatch_0 {{.*}} -> %[[E]]
// CHECK-NOT:     stream.async.dispatch
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

// A division whose divisor is at least 1 (the maximum of a value and a
// positive constant) cannot trap: a body may use it.
// CHECK-LABEL: module @divide_positive_dispatch_0
// CHECK:         arith.maxui
// CHECK:         arith.divui
func.func @divide_positive(%a: tensor<4xi32>, %b: tensor<4xi32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%o : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32):
    %c1 = arith.constant 1 : i32
    %m = arith.maxui %y, %c1 : i32
    %q = arith.divui %x, %m : i32
    linalg.yield %q : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// A signed division by an unsigned maximum may divide by -1 (overflow):
// refused.
func.func @divide_signed_by_umax(%a: tensor<4xi32>, %b: tensor<4xi32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%o : tensor<4xi32>) {
  ^bb0(%x: i32, %y: i32, %z: i32):
    %c1 = arith.constant 1 : i32
    %m = arith.maxui %y, %c1 : i32
    // expected-error @+1 {{'arith.divsi' in the body of 'linalg.generic' is not supported: integer division in a native kernel would trap on a zero divisor}}
    %q = arith.divsi %x, %m : i32
    linalg.yield %q : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @divide_tensors(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'arith.divsi' is not supported by Ferry}}
  %0 = arith.divsi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// linalg.softmax is decomposed by its own interface: a max reduction into
// a fill, exp(x - max), a sum reduction into a fill, the division. Each
// reduction is a dispatch with its fill fused; exp(x - max) is read by the
// sum and the division, so it stays a dispatch (and a value) of its own,
// and so does the division (it reads the sum broadcast, not element for
// element). The last is written into the softmax's outs.
// CHECK-LABEL: module @softmax_dispatch_0
// CHECK:         linalg.fill
// CHECK:         arith.maxnumf
// CHECK-LABEL: module @softmax_dispatch_1
// CHECK:         arith.subf
// CHECK:         math.exp
// CHECK-LABEL: module @softmax_dispatch_2
// CHECK:         linalg.fill
// CHECK:         arith.addf
// CHECK-LABEL: module @softmax_dispatch_3
// CHECK:         arith.divf
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     linalg.softmax
// CHECK-NOT:     stream.async.fill
// CHECK:         stream.async.dispatch.entry @softmax_dispatch_0::@softmax_dispatch_0
// CHECK:         stream.async.dispatch.entry @softmax_dispatch_1::@softmax_dispatch_1
// CHECK-NOT:     stream.async.fill
// CHECK:         stream.async.dispatch.entry @softmax_dispatch_2::@softmax_dispatch_2
// CHECK:         %[[R:.*]] = stream.async.dispatch.entry @softmax_dispatch_3::@softmax_dispatch_3 {{.*}}(%{{.*}}, %{{.*}}, %[[OUT:.*]]) : ({{.*}}) -> %[[OUT]]{{{.*}}}
// CHECK:         stream.tensor.export %[[R]]
func.func @softmax(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// -----

// A constant index is checked like a window where a loop range is dynamic
// (the linalg verifier checks it only where all are static).
// CHECK-LABEL: func.func @constant_index(
// CHECK:         %[[FITS:.*]] = arith.cmpi slt, %c1{{.*}}, %c2
// CHECK:         cf.assert %[[FITS]], "operand 0 of 'linalg.generic' at {{.*}} is too small in dimension 1 for the window the loops read"
// CHECK:         stream.async.dispatch.entry @constant_index_dispatch_0::@constant_index_dispatch_0
func.func @constant_index(%a: tensor<?x2xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?x2xf32>) outs(%o : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
