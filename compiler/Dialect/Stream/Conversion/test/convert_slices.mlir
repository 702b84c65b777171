// RUN: ferry-opt %s --split-input-file --convert-input-to-stream | FileCheck %s

// A contiguous extract_slice (leading unit dims, one partial dim, whole
// dims after) is a byte range of its source: row %i of 8x4xf32 starts at
// byte %i * 4 * 4. A dynamic offset is checked at run time.
// CHECK-LABEL: func.func @extract_row
// CHECK: cf.assert %{{.+}}, "'tensor.extract_slice' at {{.+}}: dimension 0 is out of bounds
// CHECK: %[[L:.+]] = arith.muli %arg1, %c4
// CHECK: %[[M:.+]] = arith.addi %[[L]]
// CHECK: %[[O:.+]] = arith.muli %[[M]]
// CHECK: stream.async.slice %{{.+}}[%[[O]]]
func.func @extract_row(%a: tensor<8x4xf32>, %i: index) -> tensor<4xf32> {
  %s = tensor.extract_slice %a[%i, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A contiguous insert_slice is an update of the destination at its byte
// offset (row 2 of 8x4xi32: (2 * 4 + 0) * 4 bytes); static bounds need no
// check.
// CHECK-LABEL: func.func @insert_rows
// CHECK-NOT: cf.assert
// CHECK: arith.muli %c2, %c4
// CHECK: %[[O:.+]] = arith.muli
// CHECK: stream.async.update %{{.+}}, %{{.+}}[%[[O]]]
func.func @insert_rows(%d: tensor<8x4xi32>, %t: tensor<2x4xi32>) -> tensor<8x4xi32> {
  %r = tensor.insert_slice %t into %d[2, 0] [2, 4] [1, 1] : tensor<2x4xi32> into tensor<8x4xi32>
  return %r : tensor<8x4xi32>
}

// -----

// A strided slice is a copy kernel: a generic reading the source at
// offset + loop * stride, outlined and dispatched into a new tensor.
// CHECK: affine_map<(d0, d1) -> (d0 * 2 + 1, d1 + 2)>
// CHECK-LABEL: func.func @extract_strided
// CHECK-NOT: stream.async.slice
// CHECK: stream.async.dispatch.entry
func.func @extract_strided(%a: tensor<8x4xf32>) -> tensor<3x2xf32> {
  %s = tensor.extract_slice %a[1, 2] [3, 2] [2, 1] : tensor<8x4xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// A copy kernel cutting a dim at offset 0 with stride 1 indexes it with
// `loop mod size`, not the loop alone: the loop's extent is the tile's
// (2), not the source's (5) that linalg would infer from the input
// (the generic did not verify: "inferred input/output operand #1 has
// shape's dimension #1 to be 5, but found 2"). A whole dim stays the loop.
// CHECK: affine_map<(d0, d1) -> (d0, d1 mod 2)>
// CHECK-LABEL: func.func @extract_strided_at_zero
// CHECK: stream.async.dispatch.entry
func.func @extract_strided_at_zero(%a: tensor<2x5xf32>) -> tensor<2x2xf32> {
  %s = tensor.extract_slice %a[0, 0] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

// -----

// The same for an insert (the full tensor is its output).
// CHECK: affine_map<(d0, d1) -> (d0 mod 3, 1, d1)>
// CHECK-LABEL: func.func @insert_strided_at_zero
// CHECK: stream.async.dispatch.entry
func.func @insert_strided_at_zero(%d: tensor<4x2x3xi32>, %t: tensor<3x3xi32>) -> tensor<4x2x3xi32> {
  %r = tensor.insert_slice %t into %d[0, 1, 0] [3, 1, 3] [1, 1, 1] : tensor<3x3xi32> into tensor<4x2x3xi32>
  return %r : tensor<4x2x3xi32>
}


// -----

// An insert whose source dims and slice sizes are different values is
// checked at run time: the update copies the source whole.
// CHECK-LABEL: func.func @insert_dynamic
// CHECK: cf.assert %{{.+}}, "'tensor.insert_slice' at {{.+}}: the source's dimension 0 differs from the slice's size in dimension 0"
// CHECK: stream.async.update
func.func @insert_dynamic(%d: tensor<8xi32>, %t: tensor<?xi32>, %n: index) -> tensor<8xi32> {
  %r = tensor.insert_slice %t into %d[0] [%n] [1] : tensor<?xi32> into tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// A strided extract with a dynamic stride is a copy kernel over the tile
// whose body reads the source at offset + i * stride (a gather, clamped),
// the stride a 0-d i64 input filled before the dispatch. The bounds check
// divides rather than multiplies (a large stride cannot wrap past it).
// CHECK-LABEL: module @extract_dynamic_stride_dispatch_0
// CHECK:         func.func @extract_dynamic_stride_dispatch_0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<3xf32>, %[[X:.+]]: tensor<10xf32>) -> {{.*}} attributes {ferry.copy_kernel}
// CHECK:           %[[S:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           %[[I:.+]] = linalg.index 0
// CHECK:           %[[P:.+]] = arith.muli %[[I]], %[[S]]
// CHECK:           arith.addi {{.*}}%[[P]]
// CHECK:           tensor.extract %[[X]]
// CHECK-LABEL: func.func @extract_dynamic_stride(
// CHECK:         arith.divui
// CHECK:         cf.assert %{{.+}}, "'tensor.extract_slice' at {{.+}}: dimension 0 is out of bounds
// CHECK:         stream.async.fill
// CHECK-NOT:     scf.if
// CHECK:         stream.async.dispatch.entry @extract_dynamic_stride_dispatch_0
func.func @extract_dynamic_stride(%x: tensor<10xf32>, %s: index) -> tensor<3xf32> {
  %t = tensor.extract_slice %x[1] [3] [%s] : tensor<10xf32> to tensor<3xf32>
  return %t : tensor<3xf32>
}

// -----

// Dynamic offsets of a strided slice where a dim after the first is
// dynamic (no flat range to view): the same copy kernel, each offset an
// input, the constant strides constants of the body.
// CHECK-LABEL: module @extract_dynamic_inner_dispatch_0
// CHECK:         func.func @extract_dynamic_inner_dispatch_0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<i64>, %{{.+}}: tensor<3x2xf32>, %{{.+}}: tensor<8x?xf32>) -> {{.*}} attributes {ferry.copy_kernel}
// CHECK:           arith.muli %{{.+}}, %c2
// CHECK:           tensor.extract
// CHECK-LABEL: func.func @extract_dynamic_inner(
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         cf.assert %{{.+}}, "'tensor.extract_slice' at {{.+}}: dimension 0 is out of bounds
// CHECK:         cf.assert %{{.+}}, "'tensor.extract_slice' at {{.+}}: dimension 1 is out of bounds
// CHECK:         stream.async.dispatch.entry @extract_dynamic_inner_dispatch_0
func.func @extract_dynamic_inner(%a: tensor<8x?xf32>, %i: index, %j: index) -> tensor<3x2xf32> {
  %s = tensor.extract_slice %a[%i, %j] [3, 2] [2, 1] : tensor<8x?xf32> to tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// A strided insert with a dynamic stride is a copy kernel over the
// destination, written in place: an element takes the tile's at q =
// (position - offset) / max(stride, 1) where that is exact and q is
// within the slice's size, else keeps its own.
// CHECK-LABEL: module @insert_dynamic_stride_dispatch_0
// CHECK:         func.func @insert_dynamic_stride_dispatch_0(%{{.+}}: tensor<i64>, %{{.+}}: tensor<i64>, %{{.+}}: tensor<8xi32>, %[[T:.+]]: tensor<3xi32>) -> (tensor<8xi32> {ferry.destination = 2 : i64}) attributes {ferry.copy_kernel}
// CHECK:           %[[M:.+]] = arith.maxui %[[S:.+]], %c1
// CHECK:           %[[Q:.+]] = arith.divui %{{.+}}, %[[M]]
// CHECK:           arith.muli %[[Q]], %[[S]]
// CHECK:           %[[E:.+]] = tensor.extract %[[T]]
// CHECK:           arith.select %{{.+}}, %[[E]], %{{.+}} : i32
// CHECK-LABEL: func.func @insert_dynamic_stride(
// CHECK:         cf.assert %{{.+}}, "'tensor.insert_slice' at {{.+}}: dimension 0 is out of bounds (offset, size and stride reach past the destination)"
// CHECK:         stream.async.dispatch.entry @insert_dynamic_stride_dispatch_0
func.func @insert_dynamic_stride(%d: tensor<8xi32>, %t: tensor<3xi32>, %o: index, %s: index) -> tensor<8xi32> {
  %r = tensor.insert_slice %t into %d[%o] [3] [%s] : tensor<3xi32> into tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// A tile of dynamic size read from a tensor that may be empty skips the
// kernel when the tile is empty (the gather's check would refuse an empty
// source); a source with an element needs no branch.
// CHECK-LABEL: func.func @maybe_empty(
// CHECK:         cf.assert
// CHECK:         %[[NONE:.+]] = arith.cmpi eq, %arg2, %{{.+}}
// CHECK-NEXT:    scf.if %[[NONE]]
// CHECK:           stream.async.alloca
// CHECK:         } else {
// CHECK:           stream.async.dispatch.entry
// CHECK-LABEL: func.func @never_empty_source(
// CHECK-NOT:     scf.if
// CHECK:         stream.async.dispatch.entry
func.func @maybe_empty(%x: tensor<?xf32>, %o: index, %n: index, %s: index) -> tensor<?xf32> {
  %t = tensor.extract_slice %x[%o] [%n] [%s] : tensor<?xf32> to tensor<?xf32>
  return %t : tensor<?xf32>
}
func.func @never_empty_source(%x: tensor<10xf32>, %o: index, %n: index, %s: index) -> tensor<?xf32> {
  %t = tensor.extract_slice %x[%o] [%n] [%s] : tensor<10xf32> to tensor<?xf32>
  return %t : tensor<?xf32>
}
