// RUN: ferry-opt %s | ferry-opt | FileCheck %s

// CHECK-LABEL: func.func @async
func.func @async(%view: !hal.buffer_view, %d0: index, %n: index) -> !hal.buffer_view {
  // CHECK: %[[SIZE:.+]] = stream.tensor.sizeof tensor<?x4xf32>{%{{.+}}} : index
  %size = stream.tensor.sizeof tensor<?x4xf32>{%d0} : index
  // CHECK: %[[R:.+]] = stream.tensor.import %{{.+}} message("input 0") : !hal.buffer_view -> tensor<?x4xf32>{%{{.+}}} in !stream.resource<external>{%[[SIZE]]}
  %r = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<?x4xf32>{%d0} in !stream.resource<external>{%size}
  // CHECK: stream.async.dispatch kernel("mul") type(f32) count(%{{.+}}) (%[[R]], %[[R]]) : (!stream.resource<external>{%[[SIZE]]}, !stream.resource<external>{%[[SIZE]]}) -> !stream.resource<*>{%[[SIZE]]}
  %p = stream.async.dispatch kernel("mul") type(f32) count(%n) (%r, %r) : (!stream.resource<external>{%size}, !stream.resource<external>{%size}) -> !stream.resource<*>{%size}
  // CHECK: stream.tensor.export %[[R]] : tensor<?x4xf32>{%{{.+}}} in !stream.resource<external>{%[[SIZE]]} -> !hal.buffer_view
  %out = stream.tensor.export %r : tensor<?x4xf32>{%d0} in !stream.resource<external>{%size} -> !hal.buffer_view
  return %out : !hal.buffer_view
}

// CHECK-LABEL: func.func @cmd
func.func @cmd(%a: !stream.resource<external>, %size: index, %n: index, %t0: !stream.timepoint) -> !stream.resource<external> {
  // CHECK: %[[R:.+]], %[[T:.+]] = stream.resource.alloca uninitialized await(%{{.+}}) : !stream.resource<transient>{%{{.+}}} => !stream.timepoint
  %r, %t = stream.resource.alloca uninitialized await(%t0) : !stream.resource<transient>{%size} => !stream.timepoint
  // CHECK: stream.resource.alloca uninitialized : !stream.resource<staging>
  %s, %ts = stream.resource.alloca uninitialized : !stream.resource<staging>{%size} => !stream.timepoint
  // CHECK: %[[D:.+]] = stream.cmd.dispatch kernel("sub") type(i64) count(%{{.+}}) await(%[[T]]) (%{{.+}}, %{{.+}}, %[[R]]) : (!stream.resource<external>{%{{.+}}}, !stream.resource<external>{%{{.+}}}, !stream.resource<transient>{%{{.+}}}) => !stream.timepoint
  %d = stream.cmd.dispatch kernel("sub") type(i64) count(%n) await(%t) (%a, %a, %r) : (!stream.resource<external>{%size}, !stream.resource<external>{%size}, !stream.resource<transient>{%size}) => !stream.timepoint
  // CHECK: %[[J:.+]] = stream.timepoint.join max(%[[D]], %{{.+}}) => !stream.timepoint
  %j = stream.timepoint.join max(%d, %ts) => !stream.timepoint
  // CHECK: stream.resource.dealloca await(%[[J]]) %[[R]] : !stream.resource<transient>{%{{.+}}} => !stream.timepoint
  %f = stream.resource.dealloca await(%j) %r : !stream.resource<transient>{%size} => !stream.timepoint
  // CHECK: stream.resource.dealloca %{{.+}} : !stream.resource<staging>
  %f2 = stream.resource.dealloca %s : !stream.resource<staging>{%size} => !stream.timepoint
  // CHECK: %{{.+}} = stream.timepoint.await %{{.+}} => %{{.+}} : (!stream.resource<external>{%{{.+}}})
  %ready = stream.timepoint.await %f => %a : (!stream.resource<external>{%size})
  // CHECK: stream.timepoint.await %{{[a-z0-9]+}}{{$}}
  stream.timepoint.await %f2
  return %ready : !stream.resource<external>
}
