// RUN: ferry-opt %s --split-input-file --convert-stream-to-hal | FileCheck %s

// A loop carrying a resource, its timepoint and the done timepoint: the
// loop carries a !hal.buffer and two !hal.fence instead, the immediate
// init is a join of no fences (created signalled), and the body's dispatch
// waits on the carried fence.
// CHECK-LABEL: func.func @for_loop
// CHECK: %[[BUF:.+]] = hal.device.queue.alloca
// CHECK: hal.device.queue.fill<%{{.+}} : !hal.device> wait(%{{.+}}) signal(%[[FILLED:[^)]+]])
// CHECK: %[[NOW:.+]] = hal.fence.join at([]) -> !hal.fence
// CHECK: %[[LOOP:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[BUF]], %[[T:.+]] = %[[FILLED]], %[[ALL:.+]] = %[[NOW]]) -> (!hal.buffer, !hal.fence, !hal.fence) {
// CHECK-NEXT: %[[SIGNAL:.+]] = hal.fence.create
// CHECK-NEXT: hal.device.queue.dispatch<%{{.+}} : !hal.device> wait(%[[T]]) signal(%[[SIGNAL]]) kernel("add") type(i32) count(%{{.+}}) bindings(%[[ACC]], %{{.+}}, %[[ACC]])
// CHECK-NEXT: %[[J:.+]] = hal.fence.join at([%[[ALL]], %[[SIGNAL]]])
// CHECK-NEXT: scf.yield %[[ACC]], %[[SIGNAL]], %[[J]] : !hal.buffer, !hal.fence, !hal.fence
// CHECK: hal.device.queue.copy<%{{.+}} : !hal.device> wait(%{{.+}}) signal(%{{.+}}) source(%[[LOOP]]#0 : !hal.buffer)
// CHECK-NOT: stream.
func.func @for_loop(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.cmd.fill %c0_i32, %a await(%at) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  %now = stream.timepoint.immediate => !stream.timepoint
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a, %acct = %f, %all = %now) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%acct) (%acc, %x, %acc) : (!stream.resource<transient>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %d) => !stream.timepoint
    scf.yield %acc, %d, %all2 : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %o, %ot = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %w = stream.timepoint.join max(%r#1, %ot) => !stream.timepoint
  %c = stream.cmd.copy %r#0[%c0], %o[%c0], %s await(%w) : !stream.resource<transient>{%s} -> !stream.resource<external>{%s} => !stream.timepoint
  %ready = stream.timepoint.await %c => %o : (!stream.resource<external>{%s})
  %out = stream.tensor.export %ready : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An scf.if yielding a buffer and fences from both branches, one of them
// an immediate timepoint.
// CHECK-LABEL: func.func @if_choose
// CHECK: %[[IF:.+]]:3 = scf.if %{{.+}} -> (!hal.buffer, !hal.fence, !hal.fence) {
// CHECK: hal.device.queue.dispatch
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : !hal.buffer, !hal.fence, !hal.fence
// CHECK: } else {
// CHECK-NEXT: %[[NOW:.+]] = hal.fence.join at([]) -> !hal.fence
// CHECK-NEXT: scf.yield %{{.+}}, %[[NOW]], %[[NOW]] : !hal.buffer, !hal.fence, !hal.fence
// CHECK: hal.fence.await until([%[[IF]]#1])
// CHECK-NEXT: hal.buffer.load<%[[IF]]#0 : !hal.buffer>
func.func @if_choose(%view: !hal.buffer_view, %c: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r:3 = scf.if %c -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint) {
    %b, %bt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%bt) (%x, %x, %b) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    scf.yield %b, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  } else {
    %now = stream.timepoint.immediate => !stream.timepoint
    scf.yield %x, %now, %now : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  %ready = stream.timepoint.await %r#1 => %r#0 : (!stream.resource<external>{%s})
  %v = stream.resource.load %ready[%c0] : !stream.resource<external>{%s} -> i32
  return %v : i32
}

// -----

// An scf.index_switch like the scf.if above: every case's buffer and fences
// become !hal.buffer and !hal.fence in its results, yields and the host
// load after it.
// CHECK-LABEL: func.func @switch_choose
// CHECK: %[[SW:.+]]:3 = scf.index_switch %{{.+}} -> !hal.buffer, !hal.fence, !hal.fence
// CHECK: case 0 {
// CHECK: hal.device.queue.dispatch
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : !hal.buffer, !hal.fence, !hal.fence
// CHECK: case 1 {
// CHECK: hal.device.queue.dispatch
// CHECK: scf.yield %{{.+}}, %{{.+}}, %{{.+}} : !hal.buffer, !hal.fence, !hal.fence
// CHECK: default {
// CHECK-NEXT: %[[NOW:.+]] = hal.fence.join at([]) -> !hal.fence
// CHECK-NEXT: scf.yield %{{.+}}, %[[NOW]], %[[NOW]] : !hal.buffer, !hal.fence, !hal.fence
// CHECK: hal.fence.await until([%[[SW]]#1])
// CHECK-NEXT: hal.buffer.load<%[[SW]]#0 : !hal.buffer>
func.func @switch_choose(%view: !hal.buffer_view, %sel: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r:3 = scf.index_switch %sel -> !stream.resource<external>, !stream.timepoint, !stream.timepoint
  case 0 {
    %b, %bt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%bt) (%x, %x, %b) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    scf.yield %b, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  case 1 {
    %b, %bt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("mul") type(i32) count(%c4) await(%bt) (%x, %x, %b) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
    scf.yield %b, %d, %d : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  default {
    %now = stream.timepoint.immediate => !stream.timepoint
    scf.yield %x, %now, %now : !stream.resource<external>, !stream.timepoint, !stream.timepoint
  }
  %ready = stream.timepoint.await %r#1 => %r#0 : (!stream.resource<external>{%s})
  %v = stream.resource.load %ready[%c0] : !stream.resource<external>{%s} -> i32
  return %v : i32
}

// -----

// A while loop whose condition reads the carried buffer on the host after
// its fence: the buffer, allocated before the loop, is host-mappable
// (external) because a value it is carried into is loaded.
// CHECK-LABEL: func.func @while_load
// CHECK: hal.allocator.resolve_memory_properties lifetime(external)
// CHECK: %[[W:.+]]:3 = scf.while (%[[B:.+]] = %{{.+}}, %[[BT:.+]] = %{{.+}}, %[[BALL:.+]] = %{{.+}}) : (!hal.buffer, !hal.fence, !hal.fence) -> (!hal.buffer, !hal.fence, !hal.fence) {
// CHECK-NEXT: hal.fence.await until([%[[BT]]])
// CHECK-NEXT: hal.buffer.load<%[[B]] : !hal.buffer>
// CHECK: scf.condition(%{{.+}}) %[[B]], %[[BT]], %[[BALL]] : !hal.buffer, !hal.fence, !hal.fence
// CHECK: } do {
// CHECK-NEXT: ^bb0(%{{.+}}: !hal.buffer, %{{.+}}: !hal.fence, %{{.+}}: !hal.fence):
func.func @while_load(%limit: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<1xi32> : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.cmd.fill %c1_i32, %a await(%at) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  %now = stream.timepoint.immediate => !stream.timepoint
  %r:3 = scf.while (%b = %a, %bt = %f, %ball = %now) : (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
    %ready = stream.timepoint.await %bt => %b : (!stream.resource<transient>{%s})
    %v = stream.resource.load %ready[%c0] : !stream.resource<transient>{%s} -> i32
    %go = arith.cmpi slt, %v, %limit : i32
    scf.condition(%go) %b, %bt, %ball : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  } do {
  ^bb0(%x: !stream.resource<transient>, %xt: !stream.timepoint, %xall: !stream.timepoint):
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c1) await(%xt) (%x, %x, %x) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %j = stream.timepoint.join max(%xall, %d) => !stream.timepoint
    scf.yield %x, %d, %j : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
  }
  %ready = stream.timepoint.await %r#1 => %r#0 : (!stream.resource<transient>{%s})
  %v = stream.resource.load %ready[%c0] : !stream.resource<transient>{%s} -> i32
  return %v : i32
}
