// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation --stream-form-execution-regions | FileCheck %s

// Two dependent dispatches (the second writes in place into the first's
// result) become one region: it waits once, for the allocation, and the
// host waits for the region before the export.
// CHECK-LABEL: func.func @dependent_dispatches
// CHECK: %[[R:.+]], %[[RA:.+]] = stream.resource.alloca uninitialized : !stream.resource<external>
// CHECK-NOT: stream.timepoint.join
// CHECK: %[[E:.+]] = stream.cmd.execute await(%[[RA]]) with(%[[A:.+]] as %[[CA:.+]]: !stream.resource<external>{%[[S:.+]]}, %[[R]] as %[[CR:.+]]: !stream.resource<external>{%[[S]]}) {
// CHECK-NEXT: stream.cmd.dispatch kernel("add") type(i32) count(%{{.+}}) (%[[CA]], %[[CA]], %[[CR]])
// CHECK-NEXT: stream.cmd.dispatch kernel("mul") type(i32) count(%{{.+}}) (%[[CR]], %[[CR]], %[[CR]])
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[E]] => %[[R]]
// CHECK-NEXT: stream.tensor.export %[[READY]]
func.func @dependent_dispatches(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%0, %0) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> %0{%s}
  %out = stream.tensor.export %1 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An external call runs on the host between the device work: two regions,
// the second waiting for the call, the call for the first.
// CHECK-LABEL: func.func @call_between
// CHECK: %[[E1:.+]] = stream.cmd.execute await(%{{.+}}) with(
// CHECK-COUNT-2: stream.cmd.dispatch
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: %{{.+}}, %[[C:.+]] = stream.cmd.call @ext(%{{.+}}) await(%[[E1]])
// CHECK-NEXT: %[[E2:.+]] = stream.cmd.execute await(%[[C]]) with(
// CHECK-COUNT-2: stream.cmd.dispatch
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: stream.timepoint.await %[[E2]]
func.func private @ext(tensor<4xi32>) -> tensor<4xi32> attributes {stream.tied_operands = array<i64: 0>}
func.func @call_between(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<external>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%0, %0) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> %0{%s}
  %2 = stream.async.call @ext(%1) : (!stream.resource<external>{%s}) -> (%1{%s})
  %3 = stream.async.dispatch kernel("add") type(i32) count(%n) (%2, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> %2{%s}
  %4 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%3, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> %3{%s}
  %out = stream.tensor.export %4 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Work on two devices is two regions, one per queue; the second waits for
// the first, which wrote what it reads.
// CHECK-LABEL: func.func @two_affinities
// CHECK: %[[E1:.+]] = stream.cmd.execute on(#hal.device.affinity<@a>) await(%{{.+}}) with(
// CHECK-COUNT-2: stream.cmd.fill {{.+}} {stream.affinity = #hal.device.affinity<@a>}
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: %[[E2:.+]] = stream.cmd.execute on(#hal.device.affinity<@b>) await(%[[E1]]) with(
// CHECK-COUNT-2: stream.cmd.dispatch {{.+}} {stream.affinity = #hal.device.affinity<@b>}
// CHECK-NEXT: {{^}} } => !stream.timepoint
func.func @two_affinities(%n: index) {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %e = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %0 = stream.async.fill %c1, %e : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %1 = stream.async.fill %c2, %0 : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a>}
  %2 = stream.async.dispatch kernel("add") type(i32) count(%n) (%1, %1) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %1{%s} {stream.affinity = #hal.device.affinity<@b>}
  %3 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%2, %2) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %2{%s} {stream.affinity = #hal.device.affinity<@b>}
  return
}

// -----

// One device, two queue masks: still two queues, so two regions.
// CHECK-LABEL: func.func @two_queue_masks
// CHECK: stream.cmd.execute on(#hal.device.affinity<@a, queue_mask = 1>)
// CHECK-COUNT-2: stream.cmd.fill
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: stream.cmd.execute on(#hal.device.affinity<@a, queue_mask = 2>)
// CHECK-COUNT-2: stream.cmd.fill
// CHECK-NEXT: {{^}} } => !stream.timepoint
func.func @two_queue_masks() {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %c1 = arith.constant 1 : i32
  %e = stream.async.alloca : !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a, queue_mask = 1>}
  %0 = stream.async.fill %c1, %e : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a, queue_mask = 1>}
  %1 = stream.async.fill %c1, %0 : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a, queue_mask = 1>}
  %2 = stream.async.fill %c1, %1 : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a, queue_mask = 2>}
  %3 = stream.async.fill %c1, %2 : i32 -> !stream.resource<*>{%s} {stream.affinity = #hal.device.affinity<@a, queue_mask = 2>}
  return
}

// -----

// An allocation between two dispatches ends the run: memory is allocated on
// the timeline between regions, and a lone command stays as it is.
// CHECK-LABEL: func.func @alloca_between
// CHECK-NOT: stream.cmd.execute
// CHECK: stream.resource.alloca
// CHECK-NEXT: stream.cmd.dispatch kernel("add")
// CHECK-NOT: stream.cmd.execute
// CHECK: stream.resource.alloca
// CHECK-NOT: stream.cmd.execute
// CHECK: stream.cmd.dispatch kernel("mul")
// CHECK-NOT: stream.cmd.execute
func.func @alloca_between(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
  %1 = stream.async.dispatch kernel("mul") type(i32) count(%n) (%0, %0) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %1 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// The region waits for everything its commands waited for from outside:
// both allocations, joined once. A join between the commands that a later
// op still needs moves after the region and waits for it.
// CHECK-LABEL: func.func @external_waits
// CHECK: %[[X:.+]], %[[XA:.+]] = stream.resource.alloca
// CHECK: %[[Y:.+]], %[[YA:.+]] = stream.resource.alloca
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[XA]], %[[YA]])
// CHECK-NEXT: %[[E:.+]] = stream.cmd.execute await(%[[J]])
// CHECK-COUNT-2: stream.cmd.fill
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: %[[LATER:.+]] = stream.timepoint.join max(%[[E]], %[[YA]])
// CHECK-NEXT: stream.timepoint.await %[[LATER]]
func.func @external_waits(%s: index) {
  %c1 = arith.constant 1 : i32
  %x, %xa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %y, %ya = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f1 = stream.cmd.fill %c1, %x await(%xa) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%f1, %ya) => !stream.timepoint
  %f2 = stream.cmd.fill %c1, %y await(%j) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  stream.timepoint.await %j
  return
}

// -----

// Runs form inside a loop body as in a function body: the body's two
// in-place dispatches become one region awaiting the carried timepoint,
// whose timepoint the body yields (and joins into its done timepoint, once
// per command it stands for). No region spans the loop: the fill
// before it and the dispatch after it stay on their own.
// CHECK-LABEL: func.func @loop_body
// CHECK: stream.cmd.fill
// CHECK-NOT: stream.cmd.execute
// CHECK: scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[T:.+]] = %{{.+}}, %[[ALL:.+]] = %{{.+}})
// CHECK-NEXT: %[[E:.+]] = stream.cmd.execute await(%[[T]]) with(%[[ACC]] as
// CHECK-NEXT: stream.cmd.dispatch kernel("add")
// CHECK-NEXT: stream.cmd.dispatch kernel("mul")
// CHECK-NEXT: {{^}} } => !stream.timepoint
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[ALL]], %[[E]]{{.*}})
// CHECK-NEXT: scf.yield %[[ACC]], %[[E]], %[[J]]
// CHECK-NEXT: }
// CHECK-NOT: stream.cmd.execute
// CHECK: stream.cmd.dispatch kernel("sub")
func.func @loop_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %acc) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %acc{%s}
    %m = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
    scf.yield %m : !stream.resource<*>
  }
  %d = stream.async.dispatch kernel("sub") type(i32) count(%c4) (%r, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %r{%s}
  return
}
