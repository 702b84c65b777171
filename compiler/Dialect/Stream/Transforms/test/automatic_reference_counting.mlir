// RUN: ferry-opt %s --split-input-file --stream-automatic-reference-counting | FileCheck %s

// Freed right after the last use, ordered on that use's timepoint, not at
// the end of the function; allocations without an affinity free at origin.
// CHECK-LABEL: func.func @last_use
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D1:.+]] = stream.cmd.dispatch kernel("add")
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[D1]]) %[[T]]
// The last use waited for the earlier one, so waiting for it covers both.
// CHECK: %[[D2:.+]] = stream.cmd.dispatch kernel("mul")
// CHECK-NEXT: %[[F2:.+]] = stream.resource.dealloca origin await(%[[D2]])
// Nothing is in flight when the host regains control.
// CHECK: %[[ALL:.+]] = stream.timepoint.join max(%[[F]], %[[F2]])
// CHECK-NEXT: stream.timepoint.await %[[ALL]]
// CHECK-NEXT: return
func.func @last_use(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %d2 = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%d1) (%u, %u, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

func.func private @keep(tensor<4xi32>) -> tensor<4xi32>
func.func private @pure(tensor<4xi32>) -> tensor<4xi32> attributes {nosideeffects}

// Passed to an external function that may keep it: the program releases its
// ownership and frees only if it was the last owner. A function without side
// effects keeps nothing: plain dealloca. The call's new result is the
// program's to free.
// CHECK-LABEL: func.func @external_calls
// CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[R:.+]], %[[C1:.+]] = stream.cmd.call @keep(%[[A]])
// CHECK-DAG: stream.resource.dealloca origin await(%[[C1]]) %[[R]] :
// CHECK-DAG: %[[LAST:.+]] = stream.resource.release %[[A]] : !stream.resource<transient>{%{{.+}}}
// CHECK-DAG: stream.resource.dealloca origin if(%[[LAST]]) await(%[[C1]]) %[[A]] :
// CHECK: %[[B:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[R2:.+]], %[[C2:.+]] = stream.cmd.call @pure(%[[B]])
// CHECK-DAG: stream.resource.dealloca origin await(%[[C2]]) %[[R2]] :
// CHECK-DAG: stream.resource.dealloca origin await(%[[C2]]) %[[B]] :
func.func @external_calls(%s: index) {
  %a, %aa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r, %c1 = stream.cmd.call @keep(%a) await(%aa) : (!stream.resource<transient>{%s}) -> (!stream.resource<transient>{%s}) => !stream.timepoint
  %b, %ba = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r2, %c2 = stream.cmd.call @pure(%b) await(%ba) : (!stream.resource<transient>{%s}) -> (!stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// Returned to the host: no dealloca, the caller owns it. A plain import is
// the host's and is never freed; a consumed import is the program's, freed
// after release (the host may have kept a share).
// The consumed import's dealloca is the only one in the function, so neither
// the returned buffer nor the plain import is freed.
// CHECK-LABEL: func.func @boundaries
// CHECK-NOT: indeterminate
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[IN:.+]] = stream.tensor.import %{{.+}} message("input 0")
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[OWNED:.+]] = stream.tensor.import consume
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[OUT:.+]], %{{.+}} = stream.resource.alloca
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch {{.+}} (%[[IN]], %[[OWNED]], %[[OUT]])
// CHECK-NEXT: %[[LAST:.+]] = stream.resource.release %[[OWNED]]
// CHECK-NEXT: stream.resource.dealloca origin if(%[[LAST]]) await(%[[D]]) %[[OWNED]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[READY:.+]] = stream.timepoint.await %[[D]] => %[[OUT]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: %[[VIEW:.+]] = stream.tensor.export %[[READY]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: return %[[VIEW]]
func.func @boundaries(%v0: !hal.buffer_view, %v1: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %in = stream.tensor.import %v0 message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %owned = stream.tensor.import consume %v1 message("input 1") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %out, %oa = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%oa) (%in, %owned, %out) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %ready = stream.timepoint.await %d => %out : (!stream.resource<external>{%s})
  %view = stream.tensor.export %ready : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %view : !hal.buffer_view
}

// -----

// A callee's result the caller imports on its own device is freed on the
// device the callee allocated it on (`origin`), not on the import's: a free
// queued behind another device's work would land after this device's next
// allocation, above the liveness walk's peak.
// CHECK-LABEL: func.func @callee_result_elsewhere
// CHECK: %[[R:.+]] = stream.tensor.import consume
// CHECK: stream.resource.dealloca origin if(%{{.+}}) %[[R]]
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @make() -> !hal.buffer_view
  func.func @callee_result_elsewhere() {
    %s = stream.tensor.sizeof tensor<4xi32> : index
    %v = call @make() : () -> !hal.buffer_view
    %r = stream.tensor.import consume %v message("result 0 of 'make'") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s} {stream.affinity = #hal.device.affinity<@b>}
    return
  }
}

// -----

// CHECK-LABEL: func.func @concurrent_readers
// Two reads that do not wait for each other: the memory goes when both are
// done, not just the one issued last.
// CHECK: %[[R1:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[R2:.+]] = stream.cmd.dispatch kernel("mul")
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[R1]], %[[R2]])
// CHECK-NEXT: stream.resource.dealloca origin await(%[[J]]) %[[T:.+]] :
func.func @concurrent_readers(%n: index, %s: index, %out: !stream.resource<external>, %out2: !stream.resource<external>) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %v = arith.constant 0 : i32
  %w = stream.cmd.fill %v, %t await(%ta) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  %r1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%w) (%t, %t, %out) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  %r2 = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%w) (%t, %t, %out2) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<external>{%s}) => !stream.timepoint
  return
}

// -----

// An allocation with an affinity frees on its own device, not at origin.
// CHECK-LABEL: func.func @affinity
// CHECK: stream.resource.dealloca await
// CHECK-NOT: origin
hal.device.global @dev = #hal.device.target<"local", {}>
func.func @affinity(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@dev>}
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// An execution region is one use of each resource it captures: a resource
// last used inside it is freed right after the region, ordered on the
// region's timepoint; one used again later is freed after that use.
// CHECK-LABEL: func.func @execution_region
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[U:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[E:.+]] = stream.cmd.execute
// CHECK: {{^}} } => !stream.timepoint
// CHECK-NEXT: %[[F:.+]] = stream.resource.dealloca origin await(%[[E]]) %[[T]]
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[E]])
// CHECK-NEXT: stream.resource.dealloca origin await(%[[D]]) %[[U]]
func.func @execution_region(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%ta, %ua) => !stream.timepoint
  %c1 = arith.constant 1 : i32
  %e = stream.cmd.execute await(%j) with(%t as %arg0: !stream.resource<transient>{%s}, %u as %arg1: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%arg0, %arg0, %arg1) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  } => !stream.timepoint
  %d = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%e) (%u, %u, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// A region that writes a resource ends what earlier reads of it matter for:
// the region waited for them, and the last read waited for the region, so
// the free waits for the last read alone (not for the earlier read too).
// CHECK-LABEL: func.func @region_writes
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[R:.+]] = stream.cmd.dispatch kernel("add")
// CHECK: %[[E:.+]] = stream.cmd.execute await(%{{.+}})
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[E]])
// CHECK-NEXT: stream.resource.dealloca origin await(%[[D]]) %[[T]]
func.func @region_writes(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %u, %ua = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%ta, %ua) => !stream.timepoint
  %r = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%j) (%t, %t, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %c1 = arith.constant 1 : i32
  %e = stream.cmd.execute await(%r) with(%t as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %1 = stream.cmd.fill %c1, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  %d = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%e) (%t, %t, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// -----

// A retain makes another owner, who releases that share later: the program
// releases only its own and frees only if it was the last owner, never
// unconditionally. No device work used the resource, so the free waits for
// the allocation itself.
// CHECK-LABEL: func.func @retained
// CHECK: %[[T:.+]], %[[TA:.+]] = stream.resource.alloca
// CHECK-NEXT: stream.resource.retain %[[T]]
// CHECK-NEXT: %[[LAST:.+]] = stream.resource.release %[[T]]
// CHECK-NEXT: stream.resource.dealloca origin if(%[[LAST]]) await(%[[TA]]) %[[T]]
// CHECK-NOT: stream.resource.dealloca
// CHECK: return
func.func @retained(%s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  stream.resource.retain %t : !stream.resource<transient>{%s}
  return
}

// -----

// A retain after device work: the release follows the retain, and the free
// (if any) waits for the work that used the resource.
// CHECK-LABEL: func.func @retained_after_use
// CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca
// CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("add")
// CHECK-NOT: stream.resource.dealloca
// CHECK: stream.resource.retain %[[T]]
// CHECK-NEXT: %[[LAST:.+]] = stream.resource.release %[[T]]
// CHECK-NEXT: stream.resource.dealloca origin if(%[[LAST]]) await(%[[D]]) %[[T]]
func.func @retained_after_use(%n: index, %s: index) {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%ta) (%t, %t, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  stream.resource.retain %t : !stream.resource<transient>{%s}
  return
}

// -----

// Used only by a host op (is_terminal): the free is still ordered after the
// allocation it frees.
// CHECK-LABEL: func.func @host_use_only
// CHECK: %[[T:.+]], %[[TA:.+]] = stream.resource.alloca
// CHECK-NEXT: stream.resource.is_terminal %[[T]]
// CHECK-NEXT: stream.resource.dealloca origin await(%[[TA]]) %[[T]]
func.func @host_use_only(%s: index) -> i1 {
  %t, %ta = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %only = stream.resource.is_terminal %t : !stream.resource<transient>{%s}
  return %only : i1
}
