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

func.func private @ext(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<4xi32>) attributes {stream.tied_operands = array<i64: 1, -1>}

// CHECK-LABEL: func.func @tied_async
func.func @tied_async(%a: !stream.resource<*>, %s: index, %d: index, %o: index) -> (!stream.resource<*>, !stream.resource<*>) {
  // CHECK: %[[E:.+]] = stream.async.alloca : !stream.resource<*>{%[[S:.+]]}
  %e = stream.async.alloca : !stream.resource<*>{%s}
  %v = arith.constant 2.5 : f32
  // CHECK: %[[P:.+]] = stream.async.splat %{{.+}} : f32 -> !stream.resource<*>{%[[S]]}
  %p = stream.async.splat %v : f32 -> !stream.resource<*>{%s}
  // CHECK: stream.async.constant dense<[1, 2]> : tensor<2xi32> -> !stream.resource<constant>{%[[S]]}
  %k = stream.async.constant dense<[1, 2]> : tensor<2xi32> -> !stream.resource<constant>{%s}
  // CHECK: %[[C:.+]] = stream.async.clone %[[P]] : !stream.resource<*>{%[[S]]} -> !stream.resource<*>{%[[S]]}
  %c = stream.async.clone %p : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  // CHECK: stream.async.transfer %[[C]] : !stream.resource<*>{%[[S]]} -> !stream.resource<external>{%[[S]]}
  %t = stream.async.transfer %c : !stream.resource<*>{%s} -> !stream.resource<external>{%s}
  // CHECK: %[[F:.+]] = stream.async.fill %{{.+}}, %[[E]] : f32 -> !stream.resource<*>{%[[S]]}
  %f = stream.async.fill %v, %e : f32 -> !stream.resource<*>{%s}
  // CHECK: %[[U:.+]] = stream.async.update %[[C]], %[[F]][%{{.+}}] : !stream.resource<*>{%[[S]]} -> !stream.resource<*>{%[[S]]}
  %u = stream.async.update %c, %f[%o] : !stream.resource<*>{%s} -> !stream.resource<*>{%s}
  // CHECK: stream.async.dispatch kernel("add") type(f32) count(%{{.+}}) (%[[U]], %[[P]]) : {{.+}} -> %[[U]]{%[[S]]}
  %x = stream.async.dispatch kernel("add") type(f32) count(%s) (%u, %p) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %u{%s}
  // CHECK: stream.async.call @ext(%[[P]], %{{.+}}) dims(%{{.+}}, %{{.+}}) : {{.+}} -> (%{{.+}}{%[[S]]}, !stream.resource<*>{%[[S]]})
  %r:2 = stream.async.call @ext(%p, %x) dims(%d, %d) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> (%x{%s}, !stream.resource<*>{%s})
  return %r#0, %r#1 : !stream.resource<*>, !stream.resource<*>
}

// CHECK-LABEL: func.func @tied_cmd
func.func @tied_cmd(%a: !stream.resource<transient>, %b: !stream.resource<transient>, %s: index, %d: index, %t0: !stream.timepoint) {
  %v = arith.constant 0 : i8
  // CHECK: stream.cmd.fill %{{.+}}, %{{.+}} await(%{{.+}}) : i8 -> !stream.resource<transient>{%{{.+}}} => !stream.timepoint
  %t1 = stream.cmd.fill %v, %a await(%t0) : i8 -> !stream.resource<transient>{%s} => !stream.timepoint
  %c0 = arith.constant 0 : index
  // CHECK: stream.cmd.copy %{{.+}}[%{{.+}}], %{{.+}}[%{{.+}}], %{{.+}} await(%{{.+}}) : !stream.resource<transient>{%{{.+}}} -> !stream.resource<transient>{%{{.+}}} => !stream.timepoint
  %t2 = stream.cmd.copy %a[%c0], %b[%c0], %s await(%t1) : !stream.resource<transient>{%s} -> !stream.resource<transient>{%s} => !stream.timepoint
  // CHECK: stream.cmd.call @ext(%{{.+}}, %{{.+}}) dims(%{{.+}}, %{{.+}}) await(%{{.+}}) : {{.+}} -> (%{{.+}}{%{{.+}}}, !stream.resource<transient>{%{{.+}}}) => !stream.timepoint
  %r:2, %t3 = stream.cmd.call @ext(%a, %b) dims(%d, %d) await(%t2) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}) -> (%b{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  return
}

// An execution region: captures print as `%r as %arg: type{%size}`, the
// affinity as `on(...)`, other attributes after the timepoint type.
// CHECK-LABEL: func.func @execute
func.func @execute(%a: !stream.resource<external>, %b: !stream.resource<transient>, %s: index, %n: index, %t0: !stream.timepoint) -> !stream.timepoint {
  %v = arith.constant 7 : i32
  %c0 = arith.constant 0 : index
  // CHECK: %[[T:.+]] = stream.cmd.execute on(#hal.device.affinity<@a>) await(%{{.+}}) with(%{{.+}} as %[[A:.+]]: !stream.resource<external>{%[[S:.+]]}, %{{.+}} as %[[B:.+]]: !stream.resource<transient>{%[[S]]}) {
  // CHECK-NEXT: stream.cmd.dispatch kernel("add") type(i32) count(%{{.+}}) (%[[A]], %[[A]], %[[B]]) : (!stream.resource<external>{%[[S]]}, !stream.resource<external>{%[[S]]}, !stream.resource<transient>{%[[S]]}) => !stream.timepoint
  // CHECK-NEXT: stream.cmd.fill %{{.+}}, %[[A]] : i32 -> !stream.resource<external>{%[[S]]} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
  // CHECK-NEXT: stream.cmd.copy %[[B]][%{{.+}}], %[[A]][%{{.+}}], %{{.+}} : !stream.resource<transient>{%[[S]]} -> !stream.resource<external>{%[[S]]} => !stream.timepoint
  // CHECK-NEXT: {{^}} } => !stream.timepoint attributes {note = "kept"}
  %t = stream.cmd.execute on(#hal.device.affinity<@a>) await(%t0) with(%a as %arg0: !stream.resource<external>{%s}, %b as %arg1: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%arg0, %arg0, %arg1) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    %1 = stream.cmd.fill %v, %arg0 : i32 -> !stream.resource<external>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@a>}
    %2 = stream.cmd.copy %arg1[%c0], %arg0[%c0], %s : !stream.resource<transient>{%s} -> !stream.resource<external>{%s} => !stream.timepoint
  } => !stream.timepoint attributes {note = "kept"}
  // Without an affinity or an await.
  // CHECK: stream.cmd.execute with(%{{.+}} as %[[C:.+]]: !stream.resource<transient>{%{{.+}}}) {
  // CHECK-NEXT: stream.cmd.fill %{{.+}}, %[[C]]
  // CHECK-NEXT: {{^}} } => !stream.timepoint
  %u = stream.cmd.execute with(%b as %arg0: !stream.resource<transient>{%s}) {
    %0 = stream.cmd.fill %v, %arg0 : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
  } => !stream.timepoint
  return %t : !stream.timepoint
}

// -----

// CHECK-LABEL: func.func @dispatch_entry
// CHECK: %[[R:.+]] = stream.async.dispatch.entry @exe::@entry workgroups(%arg2, %arg2, %arg2) push_constants(%arg2) (%arg0, %arg1) : (!stream.resource<*>{%arg2}, !stream.resource<*>{%arg2}) -> %arg1{%arg2}
// CHECK: stream.cmd.dispatch.entry @exe::@entry workgroups(%arg2, %arg2, %arg2) push_constants() output(1) (%arg0, %arg1) : (!stream.resource<*>{%arg2}, !stream.resource<*>{%arg2}) => !stream.timepoint
func.func @dispatch_entry(%a: !stream.resource<*>, %b: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  %r = stream.async.dispatch.entry @exe::@entry workgroups(%s, %s, %s) push_constants(%s) (%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) -> %b{%s}
  %t = stream.cmd.dispatch.entry @exe::@entry workgroups(%s, %s, %s) push_constants() output(1) (%a, %b) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) => !stream.timepoint
  return %r : !stream.resource<*>
}

// CHECK-LABEL: func.func @carried
// CHECK: %[[S:.+]] = stream.resource.size %arg0 : !stream.resource<transient> -> index
// CHECK: %[[T:.+]] = stream.timepoint.immediate => !stream.timepoint
// CHECK: stream.resource.dealloca await(%[[T]]) %arg0 : !stream.resource<transient>{%[[S]]}
func.func @carried(%r: !stream.resource<transient>) -> !stream.timepoint {
  %s = stream.resource.size %r : !stream.resource<transient> -> index
  %t = stream.timepoint.immediate => !stream.timepoint
  %f = stream.resource.dealloca await(%t) %r : !stream.resource<transient>{%s} => !stream.timepoint
  return %f : !stream.timepoint
}

// -----

// Byte ranges: a slice of a resource, a fill of part of one, bindings of
// parts of resources.
// CHECK-LABEL: func.func @ranges
// CHECK: stream.async.slice %arg0[%arg1] : !stream.resource<*>{%arg2} -> !stream.resource<*>{%arg1}
// CHECK: stream.cmd.fill %arg3, %arg0[%arg1 for %arg1] : i32 -> !stream.resource<*>{%arg2} => !stream.timepoint
// CHECK: stream.cmd.dispatch.entry @exe::@entry workgroups(%arg1, %arg1, %arg1) push_constants() output(1) (%arg0, %arg0) : (!stream.resource<*>{%arg2}, !stream.resource<*>{%arg2}) ranges(%arg1, %arg1) lengths(%arg1, %arg1) => !stream.timepoint
func.func @ranges(%a: !stream.resource<*>, %o: index, %s: index, %v: i32) -> !stream.resource<*> {
  %r = stream.async.slice %a[%o] : !stream.resource<*>{%s} -> !stream.resource<*>{%o}
  %f = stream.cmd.fill %v, %a[%o for %o] : i32 -> !stream.resource<*>{%s} => !stream.timepoint
  %t = stream.cmd.dispatch.entry @exe::@entry workgroups(%o, %o, %o) push_constants() output(1) (%a, %a) : (!stream.resource<*>{%s}, !stream.resource<*>{%s}) ranges(%o, %o) lengths(%o, %o) => !stream.timepoint
  return %r : !stream.resource<*>
}
