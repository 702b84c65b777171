// RUN: ferry-opt %s --split-input-file --stream-schedule-allocation --stream-automatic-reference-counting | FileCheck %s

// Splats allocate and fill; clones allocate and copy; an in-place fill waits
// for every earlier reader of its target (write-after-read) and the storage
// is freed after the last use of the value it ends up holding.
// CHECK-LABEL: func.func @ops
// CHECK: %[[SP:.+]], %[[SPT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>{%[[S:.+]]}
// CHECK: %[[F0:.+]] = stream.cmd.fill %{{.+}}, %[[SP]] await(%[[SPT]]) : i32 -> !stream.resource<transient>{%[[S]]}
// CHECK: %[[CL:.+]], %[[CLT:.+]] = stream.resource.alloca uninitialized : !stream.resource<transient>{%[[S]]}
// CHECK: %[[J:.+]] = stream.timepoint.join max(%[[F0]], %[[CLT]])
// CHECK: %[[CP:.+]] = stream.cmd.copy %[[SP]][%{{.+}}], %[[CL]][%{{.+}}], %[[S]] await(%[[J]])
// CHECK: %[[OUT:.+]], %{{.+}} = stream.resource.alloca uninitialized : !stream.resource<external>
// CHECK: %[[RD:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[SP]], %[[SP]], %[[OUT]])
// The in-place fill of the splat's storage waits for both readers.
// CHECK: %[[WAR:.+]] = stream.timepoint.join max(%[[F0]], %[[CP]], %[[RD]])
// CHECK: %[[F1:.+]] = stream.cmd.fill %{{.+}}, %[[SP]] await(%[[WAR]])
// CHECK: %[[M:.+]] = stream.cmd.dispatch kernel("mul") {{.+}} (%[[SP]], %[[CL]], %[[SP]])
// CHECK-NEXT: stream.resource.dealloca origin await(%[[M]]) %[[CL]]
// CHECK: %[[A:.+]] = stream.cmd.dispatch kernel("add") {{.+}} (%[[SP]], %[[OUT]], %[[OUT]])
// CHECK-NEXT: stream.resource.dealloca origin await(%[[A]]) %[[SP]]
func.func @ops(%n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %v = arith.constant 7 : i32
  %sp = stream.async.splat %v : i32 -> !stream.resource<*>{%s}
  %cl = stream.async.clone %sp : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  %r = stream.async.dispatch kernel("add") type(i32) count(%n) (%sp, %sp) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
  %z = arith.constant 0 : i32
  %f = stream.async.fill %z, %sp : i32 -> !stream.resource<*>{%s}
  %m = stream.async.dispatch kernel("mul") type(i32) count(%n) (%f, %cl) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %f{%s}
  %r2 = stream.async.dispatch kernel("add") type(i32) count(%n) (%m, %r) : (!stream.resource<*>{%s}, !stream.resource<external>{%s}) -> %r{%s}
  %out = stream.tensor.export %r2 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
