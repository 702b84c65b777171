// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation | FileCheck %s

// A loop-carried resource updated in place: the loop carries its timepoint
// after it, then the "everything done" timepoint, starting at
// stream.timepoint.immediate. Each iteration's dispatch waits only for the
// carried timepoint (the previous iteration's write), and the done
// timepoint is joined every iteration.
// CHECK-LABEL: func.func @for_in_place
// CHECK: %[[A:.+]], %[[AT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK: %[[FILL:.+]] = stream.cmd.fill %{{.+}}, %[[A]] await(%[[AT]])
// CHECK: %[[NOW:.+]] = stream.timepoint.immediate => !stream.timepoint
// CHECK: %[[LOOP:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[A]], %[[ACCT:.+]] = %[[FILL]], %[[ALL:.+]] = %[[NOW]]) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
// CHECK-NEXT: %[[D:.+]] = stream.cmd.dispatch kernel("add") type(i32) count(%{{.+}}) await(%[[ACCT]]) (%[[ACC]], %{{.+}}, %[[ACC]])
// CHECK-NEXT: %[[ALL2:.+]] = stream.timepoint.join max(%[[ALL]], %[[D]])
// CHECK-NEXT: scf.yield %[[ACC]], %[[D]], %[[ALL2]] : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
// CHECK: stream.timepoint.join max(%[[LOOP]]#1, %{{.+}})
// CHECK: stream.cmd.copy %[[LOOP]]#0
func.func @for_in_place(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c0_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %acc{%s}
    scf.yield %y : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// A resource allocated in the body and yielded: its timepoint is the one
// of the body's last write; the next iteration reads the carried value
// after it. A captured outer resource read inside waits on its outer
// timepoint; after the loop, a write into it waits for the loop's done
// timepoint (the loop counts as its reader).
// CHECK-LABEL: func.func @for_new_value_captured_read
// CHECK: %[[X:.+]], %[[XT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK: %[[XF:.+]] = stream.cmd.fill %{{.+}}, %[[X]] await(%[[XT]])
// CHECK: %[[LOOP:.+]]:3 = scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[ACCT:.+]] = %{{.+}}, %[[ALL:.+]] = %{{.+}})
// CHECK-NEXT: %[[N:.+]], %[[NT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>
// CHECK-NEXT: %[[W:.+]] = stream.timepoint.join max(%[[ACCT]], %[[XF]], %[[NT]])
// CHECK-NEXT: %[[D:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[W]]) (%[[ACC]], %[[X]], %[[N]])
// CHECK-NEXT: %[[ALL2:.+]] = stream.timepoint.join max(%[[ALL]], %[[NT]], %[[D]])
// CHECK-NEXT: scf.yield %[[N]], %[[D]], %[[ALL2]]
// CHECK: %[[AFTER:.+]] = stream.timepoint.join max(%[[XF]], %[[LOOP]]#2)
// CHECK-NEXT: stream.cmd.fill %{{.+}}, %[[X]] await(%[[AFTER]])
func.func @for_new_value_captured_read(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.async.splat %c2_i32 : i32 -> !stream.resource<*>{%s}
  %init = stream.async.splat %c3_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%acc, %x) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
    scf.yield %y : !stream.resource<*>
  }
  %w = stream.async.fill %c3_i32, %x : i32 -> !stream.resource<*>{%s}
  return
}

// -----

// An scf.if choosing between two dispatches: both branches yield the
// resource, its timepoint and their done timepoint; a later write into
// the captured input waits for the if's done timepoint.
// CHECK-LABEL: func.func @if_two_dispatches
// CHECK: %[[IF:.+]]:3 = scf.if %{{.+}} -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
// CHECK: %[[A:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[AALL:.+]] = stream.timepoint.join max(%{{.+}}, %[[A]])
// CHECK: scf.yield %{{.+}}, %[[A]], %[[AALL]]
// CHECK: } else {
// CHECK: %[[M:.+]] = stream.cmd.dispatch kernel("mul")
// CHECK: %[[MALL:.+]] = stream.timepoint.join max(%{{.+}}, %[[M]])
// CHECK: scf.yield %{{.+}}, %[[M]], %[[MALL]]
// CHECK: }
// CHECK: stream.cmd.fill %{{.+}}, %{{.+}} await(%[[IF]]#2)
// CHECK: stream.timepoint.join max(%[[IF]]#1, %{{.+}})
func.func @if_two_dispatches(%view: !hal.buffer_view, %c: i1) -> !hal.buffer_view {
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %r = scf.if %c -> (!stream.resource<*>) {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
    scf.yield %a : !stream.resource<*>
  } else {
    %m = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
    scf.yield %m : !stream.resource<*>
  }
  %w = stream.async.fill %c9, %x : i32 -> !stream.resource<external>{%s}
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An scf.index_switch like the scf.if above: every case yields the
// resource, its timepoint and its done timepoint (a case doing no work an
// immediate one, passing on the outer value's timepoint); a write into the
// captured input waits for the done timepoint.
// CHECK-LABEL: func.func @switch_three_cases
// CHECK: %[[SW:.+]]:3 = scf.index_switch %{{.+}} -> !stream.resource<transient>, !stream.timepoint, !stream.timepoint
// CHECK: case 0 {
// CHECK: %[[A:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[AALL:.+]] = stream.timepoint.join max(%{{.+}}, %[[A]])
// CHECK: scf.yield %{{.+}}, %[[A]], %[[AALL]]
// CHECK: case 1 {
// CHECK: %[[M:.+]] = stream.cmd.dispatch kernel("mul")
// CHECK: %[[MALL:.+]] = stream.timepoint.join max(%{{.+}}, %[[M]])
// CHECK: scf.yield %{{.+}}, %[[M]], %[[MALL]]
// CHECK: default {
// CHECK: %[[NOW:.+]] = stream.timepoint.immediate
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[NOW]]
// CHECK: }
// CHECK: stream.cmd.fill %{{.+}}, %{{.+}} await(%[[SW]]#2)
// CHECK: stream.timepoint.join max(%[[SW]]#1, %{{.+}})
func.func @switch_three_cases(%view: !hal.buffer_view, %sel: index) -> !hal.buffer_view {
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %b = stream.async.alloca : !stream.resource<*>{%s}
  %r = scf.index_switch %sel -> !stream.resource<*>
  case 0 {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
    scf.yield %a : !stream.resource<*>
  }
  case 1 {
    %m = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
    scf.yield %m : !stream.resource<*>
  }
  default {
    scf.yield %b : !stream.resource<*>
  }
  %w = stream.async.fill %c9, %x : i32 -> !stream.resource<external>{%s}
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// An scf.if each of whose branches writes an outer resource in place: both
// yield that resource, so the if's result is it; its users read the
// resource itself (ready at the result's timepoint), not the result, which
// reference counting would take for a position the resource is lent to.
// CHECK-LABEL: func.func @if_both_in_place
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[IF:.+]]:3 = scf.if %{{.+}} -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
// CHECK: scf.yield %[[T]],
// CHECK: } else {
// CHECK: scf.yield %[[T]],
// CHECK: }
// CHECK-NOT: %[[IF]]#0
// CHECK: %[[W:.+]] = stream.timepoint.join max(%[[IF]]#1, %{{.+}})
// CHECK-NOT: %[[IF]]#0
// CHECK: stream.cmd.dispatch kernel("mul") {{.+}} await(%[[W]]) (%[[T]], %[[T]],
func.func @if_both_in_place(%c: i1) {
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.if %c -> (!stream.resource<*>) {
    %w = stream.async.fill %c2_i32, %t : i32 -> !stream.resource<*>{%s}
    scf.yield %w : !stream.resource<*>
  } else {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%t, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %t{%s}
    scf.yield %a : !stream.resource<*>
  }
  %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%r, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}

// -----

// The same for an scf.index_switch whose cases write an outer resource in
// place or leave it: its users read the resource itself.
// CHECK-LABEL: func.func @switch_all_in_place
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[SW:.+]]:3 = scf.index_switch %{{.+}} -> !stream.resource<transient>, !stream.timepoint, !stream.timepoint
// CHECK-NOT: %[[SW]]#0
// CHECK: %[[W:.+]] = stream.timepoint.join max(%[[SW]]#1, %{{.+}})
// CHECK-NOT: %[[SW]]#0
// CHECK: stream.cmd.dispatch kernel("mul") {{.+}} await(%[[W]]) (%[[T]], %[[T]],
func.func @switch_all_in_place(%sel: index) {
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.index_switch %sel -> !stream.resource<*>
  case 0 {
    %w = stream.async.fill %c2_i32, %t : i32 -> !stream.resource<*>{%s}
    scf.yield %w : !stream.resource<*>
  }
  case 1 {
    %a = stream.async.dispatch kernel("add") type(i32) count(%c4) (%t, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %t{%s}
    scf.yield %a : !stream.resource<*>
  }
  default {
    scf.yield %t : !stream.resource<*>
  }
  %y = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%r, %r) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}

// -----

// An scf.if without an else that writes an outer resource in place: it
// gets an else yielding stream.timepoint.immediate, and later reads of the
// resource wait for the write (the if's done timepoint) and for its
// producer (the branch may not run).
// CHECK-LABEL: func.func @if_in_place_no_else
// CHECK: %[[T:.+]], %[[TT:.+]] = stream.resource.alloca
// CHECK: %[[F:.+]] = stream.cmd.fill %{{.+}}, %[[T]] await(%[[TT]])
// CHECK: %[[IF:.+]] = scf.if %{{.+}} -> (!stream.timepoint) {
// CHECK-NEXT: %[[G:.+]] = stream.cmd.fill %{{.+}}, %[[T]] await(%[[F]])
// CHECK-NEXT: scf.yield %[[G]] : !stream.timepoint
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[NOW:.+]] = stream.timepoint.immediate => !stream.timepoint
// CHECK-NEXT: scf.yield %[[NOW]] : !stream.timepoint
// CHECK-NEXT: }
// CHECK-NEXT: %[[READY:.+]] = stream.timepoint.join max(%[[F]], %[[IF]])
// CHECK: %[[W:.+]] = stream.timepoint.join max(%[[READY]], %{{.+}})
// CHECK: stream.cmd.dispatch kernel("add") {{.+}} await(%[[W]]) (%[[T]], %[[T]],
func.func @if_in_place_no_else(%c: i1) {
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %t = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  scf.if %c {
    %w = stream.async.fill %c2_i32, %t : i32 -> !stream.resource<*>{%s}
  }
  %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%t, %t) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<*>{%s}
  return
}

// -----

// A while loop stopping on an element read back on the host: the load in
// the condition awaits the carried timepoint; condition and body both pass
// on the resource, its timepoint and the done timepoint.
// CHECK-LABEL: func.func @while_load
// CHECK: %[[NOW:.+]] = stream.timepoint.immediate
// CHECK: %[[W:.+]]:3 = scf.while (%[[B:.+]] = %{{.+}}, %[[BT:.+]] = %{{.+}}, %[[BALL:.+]] = %[[NOW]]) : (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
// CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[BT]] => %[[B]]
// CHECK-NEXT: stream.resource.load %[[READY]]
// CHECK: scf.condition(%{{.+}}) %[[B]], %[[BT]], %[[BALL]]
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[A:.+]]: !stream.resource<transient>, %[[AT:.+]]: !stream.timepoint, %[[AALL:.+]]: !stream.timepoint):
// CHECK-NEXT: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} await(%[[AT]]) (%[[A]], %{{.+}}, %[[A]])
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[AALL]], %[[D]])
// CHECK-NEXT: scf.yield %[[A]], %[[D]], %[[J]]
func.func @while_load(%view: !hal.buffer_view, %limit: i32) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<1xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<1xi32> in !stream.resource<external>{%s}
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.while (%acc = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    %v = stream.resource.load %acc[%c0] : !stream.resource<*>{%s} -> i32
    %go = arith.cmpi slt, %v, %limit : i32
    scf.condition(%go) %acc : !stream.resource<*>
  } do {
  ^bb0(%a: !stream.resource<*>):
    %y = stream.async.dispatch kernel("add") type(i32) count(%c1) (%a, %x) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %a{%s}
    scf.yield %y : !stream.resource<*>
  }
  %e = stream.async.clone %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  %out = stream.tensor.export %e : tensor<1xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// -----

// Nested loops: the inner loop's carried timepoint starts at the outer
// body's, and its done timepoint joins the outer iteration's.
// CHECK-LABEL: func.func @nested_for
// CHECK: scf.for {{.+}} iter_args(%[[OACC:.+]] = %{{.+}}, %[[OT:.+]] = %{{.+}}, %[[OALL:.+]] = %{{.+}})
// CHECK-NEXT: %[[INOW:.+]] = stream.timepoint.immediate
// CHECK-NEXT: %[[IN:.+]]:3 = scf.for {{.+}} iter_args(%[[IACC:.+]] = %[[OACC]], %[[IT:.+]] = %[[OT]], %[[IALL:.+]] = %[[INOW]])
// CHECK-NEXT: %[[D:.+]] = stream.cmd.dispatch kernel("add") {{.+}} await(%[[IT]])
// CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[IALL]], %[[D]])
// CHECK-NEXT: scf.yield %[[IACC]], %[[D]], %[[J]]
// CHECK: %[[OJ:.+]] = stream.timepoint.join max(%[[OALL]], %[[IN]]#2)
// CHECK-NEXT: scf.yield %[[IN]]#0, %[[IN]]#1, %[[OJ]]
func.func @nested_for(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%s}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc) -> (!stream.resource<*>) {
      %y = stream.async.dispatch kernel("add") type(i32) count(%c4) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %a{%s}
      scf.yield %y : !stream.resource<*>
    }
    scf.yield %inner : !stream.resource<*>
  }
  return
}

// -----

// An scf.execute_region is scheduled like an if with one branch; a host
// load after it awaits the carried timepoint. Undecided carried positions
// (`*`) become transient.
// CHECK-LABEL: func.func @execute_region
// CHECK: %[[E:.+]]:3 = scf.execute_region -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint) {
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("mul")
// CHECK: scf.yield %{{.+}}, %[[D]], %{{.+}} : !stream.resource<transient>, !stream.timepoint, !stream.timepoint
// CHECK: %[[R:.+]] = stream.timepoint.await %[[E]]#1 => %[[E]]#0
// CHECK-NEXT: stream.resource.load %[[R]]
func.func @execute_region(%view: !hal.buffer_view) -> i32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %e = scf.execute_region -> !stream.resource<*> {
    %m = stream.async.dispatch kernel("mul") type(i32) count(%c4) (%x, %x) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> !stream.resource<*>{%s}
    scf.yield %m : !stream.resource<*>
  }
  %v = stream.resource.load %e[%c0] : !stream.resource<*>{%s} -> i32
  return %v : i32
}
