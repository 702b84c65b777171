// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s

// Inputs are live throughout; allocations add, unconditional frees subtract.
// A free guarded by a release frees when that release drops the last owner,
// as it does at run time: the program is the only owner of what it
// allocates (an external call may keep a reference, not an owner), so
// %b's memory is back before %d's allocation.
// CHECK: remark: peak live bytes: 40 (inputs 16, allocated 56)
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

// A retain adds an owner: the first release is not the last and its free
// does not happen; the second release (through the await's name for the
// same buffer) is, and frees. A host buffer imported with `consume` is
// claimed where it enters (a copy if the host kept a share), so the program
// is its only owner and its release-guarded free happens too: the last
// alloca fits in what the two frees gave back.
// CHECK: remark: peak live bytes: 48 (inputs 16, allocated 64)
func.func @retained(%v: !hal.buffer_view) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %in = stream.tensor.import consume %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
  stream.resource.retain %b : !stream.resource<transient>{%c16}
  %first = stream.resource.release %b : !stream.resource<transient>{%c16}
  %f1 = stream.resource.dealloca if(%first) await(%bt) %b : !stream.resource<transient>{%c16} => !stream.timepoint
  %d, %dt = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
  %b2 = stream.timepoint.await %bt => %b : (!stream.resource<transient>{%c16})
  %second = stream.resource.release %b2 : !stream.resource<transient>{%c16}
  %f2 = stream.resource.dealloca if(%second) %b2 : !stream.resource<transient>{%c16} => !stream.timepoint
  %host = stream.resource.release %in : !stream.resource<external>{%c16}
  %f3 = stream.resource.dealloca if(%host) %in : !stream.resource<external>{%c16} => !stream.timepoint
  %e, %et = stream.resource.alloca uninitialized : !stream.resource<transient>{%c32} => !stream.timepoint
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

// -----

// A size from a tensor argument's dynamic dimension the walk has no value
// for: the remark names the argument, the dimension and why (no entry, an
// entry of too few dimensions, an entry that is no shape, an empty entry,
// below, a callee's argument whose shape its caller does not know).
// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODIM
// NODIM: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (it depends on dimension 0 of argument 0 (tensor<?x?xf32>), whose shape input-shapes does not give)
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FEWDIMS
// FEWDIMS: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (it depends on dimension 1 of argument 0 (tensor<?x?xf32>), and input-shapes gives '4' for it, of 1 dimension)
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=-3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSHAPE
// NOSHAPE: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (it depends on dimension 0 of argument 0 (tensor<?x?xf32>), and input-shapes gives '-3' for it, not a shape)
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMPTYDIM
// EMPTYDIM: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (it depends on dimension 0 of argument 0 (tensor<?x?xf32>), and input-shapes gives an empty entry for it (rank 0))
func.func @unknown_dim(%v: !hal.buffer_view) {
  %d0 = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index
  %d1 = hal.buffer_view.dim<%v : !hal.buffer_view>[1] : index
  %s = stream.tensor.sizeof tensor<?x?xf32>{%d0, %d1} : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<?x?xf32>{%d0, %d1} in !stream.resource<external>{%s}
  return
}

// -----

// A callee walked for its caller, which passes a view whose dimension it
// does not know (it comes from a scalar argument input-shapes does not
// give): the callee's remark says the caller does not know it, and the
// caller's that the callee's peak is unknown.
// RUN: ferry-opt %s --split-input-file --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALLEE
// CALLEE: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (it depends on dimension 0 of argument 0 (tensor<?xf32>), whose shape the caller passes is not known)
// CALLEE: remark: peak live bytes unknown: the peak of 'callee' is not known
func.func @caller(%n: index) {
  %c16 = arith.constant 16 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<external>{%c16} => !stream.timepoint
  %w = stream.timepoint.await %at => %a : (!stream.resource<external>{%c16})
  %view = stream.tensor.export %w : tensor<?xf32>{%n} in !stream.resource<external>{%c16} -> !hal.buffer_view
  call @callee(%view) : (!hal.buffer_view) -> ()
  %f = stream.resource.dealloca await(%at) %a : !stream.resource<external>{%c16} => !stream.timepoint
  stream.timepoint.await %f
  return
}
func.func private @callee(%v: !hal.buffer_view) {
  %d0 = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index
  %s = stream.tensor.sizeof tensor<?xf32>{%d0} : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<?xf32>{%d0} in !stream.resource<external>{%s}
  return
}

// -----

// With several devices, each has its own walk (its allocator has its own
// peak): an allocation counts on its affinity's device, or on the first
// device without one, and inputs count on the first device. A free returns
// the bytes to the device that allocated them; work in an execution region
// changes nothing, as memory comes and goes outside regions.
// CHECK: remark: peak live bytes: 48 (inputs 16, allocated 48)
// CHECK: remark: peak live bytes on @a: 32 (inputs 16, allocated 16)
// CHECK: remark: peak live bytes on @b: 32 (inputs 0, allocated 32)
// CHECK-NOT: peak live bytes on
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @devices(%view: !hal.buffer_view, %n: index) {
    %s = arith.constant 16 : index
    %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
    %p, %pa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %q, %qa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %j = stream.timepoint.join max(%pa, %qa) => !stream.timepoint
    %e = stream.cmd.execute on(#hal.device.affinity<@b>) await(%j) with(%x as %arg0: !stream.resource<external>{%s}, %p as %arg1: !stream.resource<transient>{%s}, %q as %arg2: !stream.resource<transient>{%s}) {
      %0 = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%arg0, %arg0, %arg1) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
      %1 = stream.cmd.dispatch kernel("add") type(i32) count(%n) (%arg1, %arg1, %arg2) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
    } => !stream.timepoint
    %f1 = stream.resource.dealloca await(%e) %p : !stream.resource<transient>{%s} => !stream.timepoint
    %f2 = stream.resource.dealloca await(%e) %q : !stream.resource<transient>{%s} => !stream.timepoint
    %r, %ra = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %f3 = stream.resource.dealloca origin await(%ra) %r : !stream.resource<transient>{%s} => !stream.timepoint
    return
  }
}

// -----

// A call to a function of the module adds, while it runs, the callee's peak
// beyond its inputs (the caller's buffers): @caller holds 16 + 16 bytes when
// it calls @callee, whose own allocations peak at 32 beyond its 16-byte
// input, so 64 at the call. The returned buffer (imported with consume) is
// the caller's allocation from then on, and its release-guarded free does
// free: the callee handed over its only ownership (else the last alloca
// would make 80). Scalar functions (which may branch) hold nothing.
// CHECK-LABEL: remark: peak live bytes: 48 (inputs 16, allocated 32)
// CHECK-NEXT: func.func private @callee
// CHECK-LABEL: remark: peak live bytes: 64 (inputs 16, allocated 80)
// CHECK-NEXT: func.func @caller
func.func private @scalar(%n: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %zero = arith.cmpi eq, %n, %c0 : i64
  cf.cond_br %zero, ^done, ^more
^more:
  cf.br ^done
^done:
  return %n : i64
}
func.func private @callee(%v: !hal.buffer_view) -> !hal.buffer_view {
  %c16 = arith.constant 16 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
  %r, %rt = stream.resource.alloca uninitialized : !stream.resource<external>{%c16} => !stream.timepoint
  %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c16} => !stream.timepoint
  %out = stream.tensor.export %r : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  return %out : !hal.buffer_view
}
func.func @caller(%v: !hal.buffer_view) {
  %c16 = arith.constant 16 : index
  %c3 = arith.constant 3 : i64
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<external>{%c16} => !stream.timepoint
  %n = call @scalar(%c3) : (i64) -> i64
  %bv = stream.tensor.export %b : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  %rv = call @callee(%bv) : (!hal.buffer_view) -> !hal.buffer_view
  %f = stream.resource.dealloca await(%bt) %b : !stream.resource<external>{%c16} => !stream.timepoint
  %r = stream.tensor.import consume %rv message("result 0 of 'callee'") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %last = stream.resource.release %r : !stream.resource<external>{%c16}
  %f2 = stream.resource.dealloca if(%last) %r : !stream.resource<external>{%c16} => !stream.timepoint
  %c48 = arith.constant 48 : index
  %c, %ct = stream.resource.alloca uninitialized : !stream.resource<transient>{%c48} => !stream.timepoint
  return
}

// -----

// An allocation without an affinity counts where convert-stream-to-hal
// allocates it: on the first device of its uses (here @b; the default
// device comes last), not on the first device of the module.
// CHECK: remark: peak live bytes on @a: 16 (inputs 16, allocated 0)
// CHECK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @unplaced(%view: !hal.buffer_view, %n: index, %k: i32) {
    %s = arith.constant 16 : index
    %x = stream.tensor.import %view message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
    %p, %pa = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
    %f = stream.cmd.fill %k, %p await(%pa) : i32 -> !stream.resource<transient>{%s} => !stream.timepoint
    %d = stream.cmd.dispatch kernel("add") type(i32) count(%n) await(%f) (%x, %p, %p) : (!stream.resource<external>{%s}, !stream.resource<transient>{%s}, !stream.resource<transient>{%s}) => !stream.timepoint {stream.affinity = #hal.device.affinity<@b>}
    %g = stream.resource.dealloca await(%d) %p : !stream.resource<transient>{%s} => !stream.timepoint
    return
  }
}
