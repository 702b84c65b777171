// RUN: ferry-opt %s --stream-schedule-allocation | FileCheck %s

// A constant is the module's read-only copy: no allocation, nothing to wait
// for; a dispatch reading it waits only for its other operands.
// CHECK-LABEL: func.func @read
// CHECK: %[[C:.+]] = stream.resource.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<constant>{%[[S:.+]]}
// CHECK-NOT: stream.resource.alloca {{.*}}constant
// CHECK: %[[OUT:.+]], %[[READY:.+]] = stream.resource.alloca uninitialized : !stream.resource<external>
// CHECK: stream.cmd.dispatch kernel("add") type(i32) count(%{{.+}}) await(%[[READY]]) (%{{.+}}, %[[C]], %[[OUT]])
func.func @read(%view: !hal.buffer_view, %n: index) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %c = stream.async.constant dense<[1, 2, 3, 4]> : tensor<4xi32> -> !stream.resource<*>{%s}
  %0 = stream.async.dispatch kernel("add") type(i32) count(%n) (%a, %c) : (!stream.resource<external>{%s}, !stream.resource<*>{%s}) -> !stream.resource<external>{%s}
  %out = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
