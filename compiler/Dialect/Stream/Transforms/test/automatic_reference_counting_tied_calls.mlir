// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting | FileCheck %s
// Every storage here is followed to its end: no remark.
// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark

// A call result tied to an operand is that operand written in place: one
// storage under two names. The storage is freed after the last use of
// either name, not after the call.
func.func private @inplace(tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects, stream.tied_operands = array<i64: 0>}

// CHECK-LABEL: func.func @tied_result_read_later
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[R:.+]], %{{.+}} = stream.cmd.call @inplace(%[[A]])
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[R]], %[[R]], %[[U:.+]]) :
// CHECK-DAG: stream.resource.dealloca origin await(%[[D]]) %[[U]] :
// CHECK-DAG: stream.resource.dealloca origin await(%[[D]]) %[[A]] :
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @tied_result_read_later(%n: index, %s: index) {
  %a, %aa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %c = stream.cmd.call @inplace(%a) await(%aa) : (!stream.resource<transient>{%s}) -> (%a{%s}) => !stream.timepoint
  %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%c, %ua) => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%j) (%r, %r, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

func.func private @inplace(tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects, stream.tied_operands = array<i64: 0>}

// Exported under the tied result's name: the caller owns the storage, so
// the program frees nothing.
// CHECK-LABEL: func.func @tied_result_returned
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @tied_result_returned(%s: index) -> !hal.buffer_view {
  %a, %aa = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r, %c = stream.cmd.call @inplace(%a) await(%aa) : (!stream.resource<external>{%s}) -> (%a{%s}) => !stream.timepoint
  %w = stream.timepoint.await %c => %r : (!stream.resource<external>{%s})
  %e = stream.tensor.export %w : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %e : !hal.buffer_view
}

// -----

func.func private @inplace(tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects, stream.tied_operands = array<i64: 0>}

// A loop body that writes its carried value by a call and yields the call's
// result passes the same storage on: the position owns it (no remark), the
// body frees nothing, and the loop's result is freed after the loop.
// CHECK-LABEL: func.func @tied_result_carried
// CHECK: stream.resource.alloca uninitialized :
// CHECK: %[[L:.+]]:3 = scf.for
// CHECK-NOT: stream.resource.dealloca
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[SZ:.+]] = stream.resource.size %[[L]]#0
// CHECK-NEXT: stream.resource.dealloca origin await(%[[L]]#1) %[[L]]#0 : !stream.resource<transient>{%[[SZ]]}
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @tied_result_carried(%n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %r, %rt, %done = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %at, %all = %t0) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %w, %c = stream.cmd.call @inplace(%acc) await(%acct) : (!stream.resource<transient>{%s}) -> (%acc{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %c) => !stream.timepoint
    scf.yield %w, %c, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  return
}

// -----

func.func private @inplace(tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects, stream.tied_operands = array<i64: 0>}

// One branch writes a value made before the scf.if in place by a call and
// yields the call's result, the other yields the value: both hand out the
// same storage, so the scf.if's result owns it (no remark, no indeterminate
// allocation), nothing is freed in the branches, and the result is freed
// after its last use.
// CHECK-LABEL: func.func @tied_result_yielded_by_branch
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca uninitialized :
// CHECK: %[[IF:.+]]:3 = scf.if
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add")
// CHECK-DAG: stream.resource.dealloca origin await(%[[D]]) %[[IF]]#0 :
// CHECK-DAG: stream.resource.dealloca origin await(%[[D]]) %[[U:.+]] :
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @tied_result_yielded_by_branch(%n: index, %s: index, %p: i1) {
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %rt, %done = scf.if %p -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %w, %c = stream.cmd.call @inplace(%a) await(%at) : (!stream.resource<transient>{%s}) -> (%a{%s}) => !stream.timepoint
    scf.yield %w, %c, %c : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } else {
    scf.yield %a, %at, %at : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%rt, %ua) => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%j) (%r, %r, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}
