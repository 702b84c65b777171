// RUN: ferry-opt %s --split-input-file --ferry-canonicalize | FileCheck %s

// An scf.if choosing between two resources defined before it stays an if:
// the stream passes follow resources through an if, not through a select.
// CHECK-LABEL: func.func @if_of_resources
// CHECK-NOT: arith.select
// CHECK: scf.if
// CHECK-NOT: arith.select
// CHECK: return
func.func @if_of_resources(%c: i1, %a: !stream.resource<*>, %b: !stream.resource<*>) -> !stream.resource<*> {
  %r = scf.if %c -> !stream.resource<*> {
    scf.yield %a : !stream.resource<*>
  } else {
    scf.yield %b : !stream.resource<*>
  }
  return %r : !stream.resource<*>
}

// -----

// Scalars still become a select, as do the HAL phase's buffers.
// CHECK-LABEL: func.func @if_of_scalars_and_buffers
// CHECK-NOT: scf.if
// CHECK: arith.select %arg0, %arg1, %arg2 : i32
// CHECK: arith.select %arg0, %arg3, %arg4 : !hal.buffer
// CHECK-NOT: scf.if
// CHECK: return
func.func @if_of_scalars_and_buffers(%c: i1, %a: i32, %b: i32, %x: !hal.buffer, %y: !hal.buffer) -> (i32, !hal.buffer) {
  %r:2 = scf.if %c -> (i32, !hal.buffer) {
    scf.yield %a, %x : i32, !hal.buffer
  } else {
    scf.yield %b, %y : i32, !hal.buffer
  }
  return %r#0, %r#1 : i32, !hal.buffer
}

// -----

// An if whose resource result is made in each branch (no select of it)
// still has its scalar results made selects.
// CHECK-LABEL: func.func @if_making_resources
// CHECK: arith.select %arg0, %arg1, %arg2 : i32
// CHECK: scf.if %arg0 -> (!stream.resource<*>) {
// CHECK: return
func.func @if_making_resources(%c: i1, %a: i32, %b: i32, %s: index) -> (i32, !stream.resource<*>) {
  %r:2 = scf.if %c -> (i32, !stream.resource<*>) {
    %x = stream.async.splat %a : i32 -> !stream.resource<*>{%s}
    scf.yield %a, %x : i32, !stream.resource<*>
  } else {
    %y = stream.async.splat %b : i32 -> !stream.resource<*>{%s}
    scf.yield %b, %y : i32, !stream.resource<*>
  }
  return %r#0, %r#1 : i32, !stream.resource<*>
}
