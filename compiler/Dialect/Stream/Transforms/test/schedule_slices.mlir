// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation | FileCheck %s

// A tile copied into part of a resource nobody uses from the tile's making
// on is made in that range: the splat fills the target at the update's
// offset, the fill after it too, and the update copies nothing.
// CHECK-LABEL: func.func @tile_into_range
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK-NOT: stream.resource.alloca
// CHECK: stream.cmd.fill %{{.+}}, %[[T]][%c16 for %[[S:.+]]] await
// CHECK: stream.cmd.fill %{{.+}}, %[[T]][%c16 for %[[S]]] await
// CHECK-NOT: stream.cmd.copy
func.func @tile_into_range() -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %st = stream.tensor.sizeof tensor<16xi32> : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = stream.async.alloca : !stream.resource<external>{%st}
  %a = stream.async.splat %c1 : i32 -> !stream.resource<*>{%s}
  %b = stream.async.fill %c2, %a : i32 -> !stream.resource<*>{%s}
  %u = stream.async.update %b, %t[%c16] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %v = stream.tensor.export %u : tensor<16xi32> in !stream.resource<external>{%st} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A tile whose target is read after the tile is made cannot go there: it
// gets its own allocation and the update copies it.
// CHECK-LABEL: func.func @target_read_after_tile
// CHECK: stream.resource.alloca
// CHECK: stream.resource.alloca
// CHECK: stream.cmd.fill %{{.+}}, %{{[^\[]+}} await
// CHECK: stream.cmd.copy
func.func @target_read_after_tile(%vt: !hal.buffer_view) -> (!hal.buffer_view, i32) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %st = stream.tensor.sizeof tensor<16xi32> : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : i32
  %t = stream.async.alloca : !stream.resource<external>{%st}
  %a = stream.async.splat %c1 : i32 -> !stream.resource<*>{%s}
  %x = stream.resource.load %t[%c0] : !stream.resource<external>{%st} -> i32
  %u = stream.async.update %a, %t[%c16] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %v = stream.tensor.export %u : tensor<16xi32> in !stream.resource<external>{%st} -> !hal.buffer_view
  return %v, %x : !hal.buffer_view, i32
}

// -----

// A slice read by a native dispatch and a host load is a view: the
// dispatch binds the source at the slice's offset, the load reads there;
// nothing is allocated or copied for it.
// CHECK-LABEL: func.func @slice_view
// CHECK: %[[X:.+]] = stream.tensor.import
// CHECK-NOT: stream.cmd.copy
// CHECK: stream.cmd.dispatch.entry @d::@d {{.+}} (%[[X]], %{{.+}}) : {{.+}} ranges(%c16, %c0{{.*}}) lengths(%[[S:.+]], %[[S]])
// CHECK: %[[O:.+]] = arith.addi %c16, %c4
// CHECK: stream.resource.load %{{.+}}[%[[O]]]
// CHECK-NOT: stream.cmd.copy
func.func @slice_view(%vx: !hal.buffer_view) -> (!hal.buffer_view, i32) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %sx = stream.tensor.sizeof tensor<16xi32> : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<16xi32> in !stream.resource<external>{%sx}
  %sl = stream.async.slice %x[%c16] : !stream.resource<external>{%sx} -> !stream.resource<*>{%s}
  %e = stream.async.alloca : !stream.resource<external>{%s}
  %d = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%sl, %e) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e{%s}
  %l = stream.resource.load %sl[%c4] : !stream.resource<*>{%s} -> i32
  %v = stream.tensor.export %d : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v, %l : !hal.buffer_view, i32
}

// -----

// A slice read inside a loop (each iteration, by a native dispatch) is a
// view too: the loop's dispatch binds the source at the slice's offset.
// CHECK-LABEL: func.func @slice_view_in_loop
// CHECK: %[[X:.+]] = stream.tensor.import
// CHECK-NOT: stream.cmd.copy
// CHECK: scf.for
// CHECK: stream.cmd.dispatch.entry @d::@d {{.+}} (%[[X]], %{{.+}}) : {{.+}} ranges(%c16, %c0{{.*}})
func.func @slice_view_in_loop(%vx: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %sx = stream.tensor.sizeof tensor<16xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %x = stream.tensor.import %vx message("input 0") : !hal.buffer_view -> tensor<16xi32> in !stream.resource<external>{%sx}
  %sl = stream.async.slice %x[%c16] : !stream.resource<external>{%sx} -> !stream.resource<*>{%s}
  %e = stream.async.alloca : !stream.resource<external>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e) -> (!stream.resource<external>) {
    %d = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%sl, %acc) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
    scf.yield %d : !stream.resource<external>
  }
  %v = stream.tensor.export %r : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A loop that reads the slice and carries its source, writing it in place:
// the write may come before a later iteration's read, so the slice stays
// a copy. So it does when the slice is read after such a loop.
// CHECK-LABEL: func.func @slice_source_written_in_loop
// CHECK: stream.cmd.copy
// CHECK: scf.for
func.func @slice_source_written_in_loop(%n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %sx = stream.tensor.sizeof tensor<16xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c7 = arith.constant 7 : i32
  %a = stream.async.splat %c7 : i32 -> !stream.resource<external>{%sx}
  %sl = stream.async.slice %a[%c16] : !stream.resource<external>{%sx} -> !stream.resource<*>{%s}
  %e = stream.async.alloca : !stream.resource<external>{%s}
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e, %src = %a) -> (!stream.resource<external>, !stream.resource<external>) {
    %d = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%sl, %acc) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
    %w = stream.async.fill %c7, %src : i32 -> !stream.resource<external>{%sx}
    scf.yield %d, %w : !stream.resource<external>, !stream.resource<external>
  }
  %v = stream.tensor.export %r#0 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// CHECK-LABEL: func.func @slice_read_after_loop_writing_source
// CHECK: stream.cmd.copy
// CHECK: scf.for
func.func @slice_read_after_loop_writing_source(%n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %sx = stream.tensor.sizeof tensor<16xi32> : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c7 = arith.constant 7 : i32
  %a = stream.async.splat %c7 : i32 -> !stream.resource<external>{%sx}
  %sl = stream.async.slice %a[%c16] : !stream.resource<external>{%sx} -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%src = %a) -> (!stream.resource<external>) {
    %w = stream.async.fill %c7, %src : i32 -> !stream.resource<external>{%sx}
    scf.yield %w : !stream.resource<external>
  }
  %e = stream.async.alloca : !stream.resource<external>{%s}
  %d = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%sl, %e) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e{%s}
  %v = stream.tensor.export %d : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A slice whose source is written in place before its reader, or that is
// returned, is a copy of its range into an allocation of its own.
// CHECK-LABEL: func.func @slice_copies
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[C:.+]], %{{.+}} = stream.resource.alloca
// CHECK: stream.cmd.copy %[[A]][%c16], %[[C]][%c0{{.*}}], %[[S:[^ ]+]]
// CHECK: stream.cmd.fill %{{.+}}, %[[A]] await
func.func @slice_copies() -> (!hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %sx = stream.tensor.sizeof tensor<16xi32> : index
  %c16 = arith.constant 16 : index
  %c7 = arith.constant 7 : i32
  %a = stream.async.splat %c7 : i32 -> !stream.resource<external>{%sx}
  %sl = stream.async.slice %a[%c16] : !stream.resource<external>{%sx} -> !stream.resource<external>{%s}
  %w = stream.async.fill %c7, %a : i32 -> !stream.resource<external>{%sx}
  %v = stream.tensor.export %w : tensor<16xi32> in !stream.resource<external>{%sx} -> !hal.buffer_view
  %vs = stream.tensor.export %sl : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v, %vs : !hal.buffer_view, !hal.buffer_view
}

// -----

// Tiles made first and inserted after: the second tile's target is the
// first's update, made after the tile, but their ranges are disjoint, so
// both are made in the one resource.
// CHECK-LABEL: func.func @tiles_made_first
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK-NOT: stream.resource.alloca
// CHECK: stream.cmd.fill %{{.+}}, %[[T]][%c0 for
// CHECK: stream.cmd.fill %{{.+}}, %[[T]][%c16 for
// CHECK-NOT: stream.cmd.copy
func.func @tiles_made_first() -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %st = stream.tensor.sizeof tensor<8xi32> : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = stream.async.alloca : !stream.resource<external>{%st}
  %a = stream.async.splat %c1 : i32 -> !stream.resource<*>{%s}
  %b = stream.async.splat %c2 : i32 -> !stream.resource<*>{%s}
  %u0 = stream.async.update %a, %t[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %u1 = stream.async.update %b, %u0[%c16] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %v = stream.tensor.export %u1 : tensor<8xi32> in !stream.resource<external>{%st} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// Overlapping ranges: the later tile would be overwritten by the earlier
// update if made in place first, so it gets its own allocation and a copy.
// CHECK-LABEL: func.func @tiles_overlap
// CHECK: stream.resource.alloca
// CHECK: stream.resource.alloca
// CHECK: stream.cmd.copy
func.func @tiles_overlap() -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %st = stream.tensor.sizeof tensor<8xi32> : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %t = stream.async.alloca : !stream.resource<external>{%st}
  %a = stream.async.splat %c1 : i32 -> !stream.resource<*>{%s}
  %b = stream.async.splat %c2 : i32 -> !stream.resource<*>{%s}
  %u0 = stream.async.update %a, %t[%c0] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %u1 = stream.async.update %b, %u0[%c8] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %v = stream.tensor.export %u1 : tensor<8xi32> in !stream.resource<external>{%st} -> !hal.buffer_view
  return %v : !hal.buffer_view
}

// -----

// A slice of the target read after a tile is made in the target: where
// the ranges overlap the slice is copied where it is (before the tile is
// written); where they are apart (offsets differing by a constant at
// least the size) it stays a view.
// CHECK-LABEL: func.func @slice_and_tile
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca uninitialized : !stream.resource<external>
// CHECK: %[[C:.+]], %{{.+}} = stream.resource.alloca
// CHECK: stream.cmd.copy %[[T]][%c16], %[[C]][%c0
// CHECK-NOT: stream.resource.alloca
// CHECK: stream.cmd.dispatch.entry @d::@d {{.+}} (%[[T]], %[[T]]) : {{.+}} ranges(%[[I:.+]], %[[O:.+]]) lengths
// CHECK: stream.cmd.dispatch.entry @d::@d {{.+}} (%[[C]], %{{.+}})
func.func @slice_and_tile(%i: index) -> (!hal.buffer_view, !hal.buffer_view) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %st = stream.tensor.sizeof tensor<16xi32> : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %t = stream.async.alloca : !stream.resource<external>{%st}
  %apart = stream.async.slice %t[%i] : !stream.resource<external>{%st} -> !stream.resource<*>{%s}
  %overlap = stream.async.slice %t[%c16] : !stream.resource<external>{%st} -> !stream.resource<*>{%s}
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %d = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%apart, %e) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %e{%s}
  %o = arith.addi %i, %c16 : index
  %u = stream.async.update %d, %t[%o] : !stream.resource<*>{%s} -> !stream.resource<external>{%st}
  %e2 = stream.async.alloca : !stream.resource<external>{%s}
  %d2 = stream.async.dispatch.entry @d::@d workgroups(%c1, %c1, %c1) push_constants() (%overlap, %e2) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %e2{%s}
  %v = stream.tensor.export %u : tensor<16xi32> in !stream.resource<external>{%st} -> !hal.buffer_view
  %v2 = stream.tensor.export %d2 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %v, %v2 : !hal.buffer_view, !hal.buffer_view
}
