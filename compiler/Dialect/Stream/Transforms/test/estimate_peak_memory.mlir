// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s

// Inputs are live throughout; allocations add, unconditional frees subtract;
// a free guarded by a release is assumed not to happen (an upper bound).
// CHECK: remark: peak live bytes: 56 (inputs 16, allocated 56)
func.func @walk(%v: !hal.buffer_view, %c: i1) {
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
  %f1 = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c16} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
  %last = stream.resource.release %b : !stream.resource<transient>{%c16}
  %f2 = stream.resource.dealloca if(%last) await(%bt) %b : !stream.resource<transient>{%c16} => !stream.timepoint
  %d, %dt = stream.resource.alloca uninitialized : !stream.resource<transient>{%c24} => !stream.timepoint
  return
}

// -----

// Dynamic input dimensions take their values from input-shapes.
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=2x3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: remark: peak live bytes: 48 (inputs 24, allocated 24)
func.func @shapes(%v: !hal.buffer_view) {
  %d0 = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index
  %d1 = hal.buffer_view.dim<%v : !hal.buffer_view>[1] : index
  %s = stream.tensor.sizeof tensor<?x?xf32>{%d0, %d1} : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<?x?xf32>{%d0, %d1} in !stream.resource<external>{%s}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// -----

// CHECK: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically
func.func @dynamic(%s: index) {
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
