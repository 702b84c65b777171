// RUN: ferry-opt %s --split-input-file --stream-reuse-allocations | FileCheck %s

// Memory freed by a dealloca goes to a later alloca of the same size,
// lifetime and affinity; the taker waits for what the dealloca waited for,
// and the storage's final dealloca keeps `origin`.
// CHECK-LABEL: func.func @reuse
// CHECK: %[[A:.+]], %[[AT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>{%[[S:.+]]}
// CHECK: %[[D1:.+]] = stream.cmd.dispatch kernel("add") {{.+}} await(%[[AT]])
// CHECK-NOT: stream.resource.alloca
// CHECK: %[[D2:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} await(%[[D1]]) (%{{.+}}, %{{.+}}, %[[A]])
// CHECK: %[[F:.+]] = stream.resource.dealloca origin await(%[[D2]]) %[[A]]
// CHECK: stream.timepoint.join max(%[[D1]], %[[F]])
func.func @reuse(%n: index, %s: index, %in: !stream.resource<external>) {
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%at) (%in, %in, %a) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %f1 = stream.resource.dealloca origin await(%d1) %a : !stream.resource<transient>{%s} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %d2 = stream.cmd.dispatch kernel("mul") type(i32) count(%n) await(%bt) (%in, %in, %b) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %f2 = stream.resource.dealloca await(%d2) %b : !stream.resource<transient>{%s} => !stream.timepoint
  %all = stream.timepoint.join max(%f1, %f2) => !stream.timepoint
  stream.timepoint.await %all
  return
}

// -----

// Not recycled: a different size, a different lifetime, an indeterminate
// allocation (others may hold it), or a conditional free (nobody knows at
// compile time whether it frees).
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-6: stream.resource.alloca
func.func @kept_apart(%n: index, %s: index, %s2: index, %last: i1) {
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f1 = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%s} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s2} => !stream.timepoint
  %c, %ct = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %d, %dt = stream.resource.alloca uninitialized indeterminate : !stream.resource<transient>{%s} => !stream.timepoint
  %e, %et = stream.resource.alloca uninitialized : !stream.resource<transient>{%s2} => !stream.timepoint
  %f2 = stream.resource.dealloca if(%last) await(%et) %e : !stream.resource<transient>{%s2} => !stream.timepoint
  %g, %gt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s2} => !stream.timepoint
  return
}

// -----

// Inside a loop body, memory freed earlier in the same iteration goes to a
// later alloca of that iteration (the free is issued first).
// CHECK-LABEL: func.func @reuse_in_body
// CHECK: scf.for
// CHECK: %[[T:.+]], %[[TT:.+]] = stream.resource.alloca
// CHECK-NOT: stream.resource.alloca
// CHECK: scf.yield
func.func @reuse_in_body(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    %u, %ut = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d2 = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%ut) (%out, %out, %u) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f2 = stream.resource.dealloca await(%d2) %u : !stream.resource<transient>{%s} => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %f, %f2) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  stream.timepoint.await %done
  return
}

// -----

// Never across a region boundary: memory freed before a loop is not taken
// by an alloca in its body (which runs once per iteration and frees what it
// allocates each time).
// CHECK-LABEL: func.func @not_into_body
// CHECK: stream.resource.alloca
// CHECK: stream.resource.dealloca
// CHECK: scf.for
// CHECK-NEXT: stream.resource.alloca
func.func @not_into_body(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %da = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%at) (%out, %out, %a) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %fa = stream.resource.dealloca await(%da) %a : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %f) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  %end = stream.timepoint.join max(%fa, %done) => !stream.timepoint
  stream.timepoint.await %end
  return
}

// Memory freed in a body is not taken by an alloca after the loop.
// CHECK-LABEL: func.func @not_out_of_body
// CHECK: scf.for
// CHECK: stream.resource.dealloca
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: stream.resource.alloca
func.func @not_out_of_body(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %f) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %db = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%bt) (%out, %out, %b) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %fb = stream.resource.dealloca await(%db) %b : !stream.resource<transient>{%s} => !stream.timepoint
  %end = stream.timepoint.join max(%done, %fb) => !stream.timepoint
  stream.timepoint.await %end
  return
}

// Memory freed in one branch is not taken by an alloca in the other.
// CHECK-LABEL: func.func @not_across_branches
// CHECK: scf.if
// CHECK-NEXT: stream.resource.alloca
// CHECK: } else {
// CHECK-NEXT: stream.resource.alloca
func.func @not_across_branches(%c: i1, %s: index, %out: !stream.resource<transient>) {
  %c4 = arith.constant 4 : index
  %idone = scf.if %c -> (!stream.timepoint) {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    scf.yield %f : !stream.timepoint
  } else {
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    scf.yield %f : !stream.timepoint
  }
  stream.timepoint.await %idone
  return
}

// -----

// A free in a loop body of memory allocated outside it runs every
// iteration: its memory is not handed to an alloca of the body, which
// would free it again next iteration.
// CHECK-LABEL: func.func @outer_memory_freed_in_body
// CHECK: scf.for
// CHECK: stream.resource.dealloca
// CHECK: stream.resource.alloca
func.func @outer_memory_freed_in_body(%n: index, %s: index, %out: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %t0 = stream.timepoint.immediate => !stream.timepoint
  %done = scf.for %i = %c0 to %n step %c1 iter_args(%all = %t0) -> (!stream.timepoint) {
    %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%s} => !stream.timepoint
    %t, %tt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%c4) await(%tt) (%out, %out, %t) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %f2 = stream.resource.dealloca await(%d) %t : !stream.resource<transient>{%s} => !stream.timepoint
    %all2 = stream.timepoint.join max(%all, %f, %f2) => !stream.timepoint
    scf.yield %all2 : !stream.timepoint
  }
  stream.timepoint.await %done
  return
}
