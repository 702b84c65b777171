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
