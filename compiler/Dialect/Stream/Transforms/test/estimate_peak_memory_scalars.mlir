// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=4x5,3" -o /dev/null 2>&1 | FileCheck %s

// input-shapes gives one entry per argument: a tensor's shape, or an
// integer scalar's value. A slice whose rows are the scalar argument %n
// (3 rows of 20 bytes) is sized from it.
// CHECK: remark: peak live bytes: 140 (inputs 80, allocated 60)
// CHECK-NEXT: func.func @slice_rows
func.func @slice_rows(%v: !hal.buffer_view, %n: index) {
  %c80 = arith.constant 80 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4x5xf32> in !stream.resource<external>{%c80}
  %s = stream.tensor.sizeof tensor<?x5xf32>{%n} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// -----

// The caller's scalar reaches its callee: walked from @caller, @callee
// gets %n = 3 and adds its 60 bytes while it runs. (Walked alone, with the
// module's input-shapes, its %m has the entry '4x5': no value.)
// CHECK: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 0 (index), and input-shapes gives '4x5' for it, not an integer)
// CHECK: remark: peak live bytes: 140 (inputs 80, allocated 0)
// CHECK-NEXT: func.func @caller
func.func private @callee(%m: index) {
  %s = stream.tensor.sizeof tensor<?x5xf32>{%m} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
func.func @caller(%v: !hal.buffer_view, %n: index) {
  %c80 = arith.constant 80 : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4x5xf32> in !stream.resource<external>{%c80}
  call @callee(%n) : (index) -> ()
  return
}

// -----

// A function without stream ops of its own (scalars in and out) holds,
// while it calls one that allocates, what that callee holds: not nothing.
// CHECK: remark: peak live bytes: 64 (inputs 0, allocated 0)
// CHECK-NEXT: func.func @scalar_caller
func.func private @allocates(%m: index) -> index {
  %c64 = arith.constant 64 : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c64} => !stream.timepoint
  %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c64} => !stream.timepoint
  return %m : index
}
func.func @scalar_caller(%n: index) -> index {
  %r = call @allocates(%n) : (index) -> index
  return %r : index
}

// -----

// Integer arithmetic of scalar arguments, in each type's width as at run
// time (the arith form of an affine map, min/max, unsigned ops, casts).
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=7,-7,200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARITH
// (7 * 3 + 1) floordiv 2 = 11, 7 ceildiv 2 = 4, 7 mod 4 = 3: 18 elements.
// ARITH: remark: peak live bytes: 72 (inputs 0, allocated 72)
// ARITH-NEXT: func.func @affine
func.func @affine(%k: i32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = arith.index_cast %k : i32 to index
  %t = arith.muli %n, %c3 : index
  %u = arith.addi %t, %c1 : index
  %a = arith.floordivsi %u, %c2 : index
  %b = arith.ceildivsi %n, %c2 : index
  %r = arith.remsi %n, %c4 : index
  %ab = arith.addi %a, %b : index
  %sum = arith.addi %ab, %r : index
  %s = stream.tensor.sizeof tensor<?xi32>{%sum} : index
  %x, %xt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// -----

// Unsigned ops read the bits: ori(-7, 4) is -3, the largest index but two
// unsigned, so minui gives 4 (the random generator's `minui(x | k, k)`);
// maxsi(-7, 2) is 2; an i8 of 200 is 200 through index_castui (-56
// through index_cast, clamped to 0 by maxsi): 4 + 2 + 200 + 0 elements.
// ARITH: remark: peak live bytes: 824 (inputs 0, allocated 824)
// ARITH-NEXT: func.func @unsigned
func.func @unsigned(%j: index, %k: i64, %b: i8) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %kk = arith.index_cast %k : i64 to index
  %o = arith.ori %kk, %c4 : index
  %m = arith.minui %o, %c4 : index
  %x = arith.maxsi %kk, %c2 : index
  %wide = arith.index_castui %b : i8 to index
  %neg = arith.index_cast %b : i8 to index
  %zero = arith.maxsi %neg, %c0 : index
  %s1 = arith.addi %m, %x : index
  %s2 = arith.addi %s1, %wide : index
  %s3 = arith.addi %s2, %zero : index
  %s = stream.tensor.sizeof tensor<?xi32>{%s3} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// -----

// A scalar decides control flow where the walk can evaluate it: the scf.if
// branch its condition picks (7 > 4: the 16-byte one, not the larger), a
// loop of known trip count (-7 to 7 by 200: one iteration, 32 bytes), and
// a loop from 4 to %j - 7 = 0 runs none: its 1000 bytes never count.
// ARITH: remark: peak live bytes: 32 (inputs 0, allocated 48)
// ARITH-NEXT: func.func @control
func.func @control(%j: index, %k: index, %b: index) {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  %big = arith.cmpi sgt, %j, %c4 : index
  scf.if %big {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c16} => !stream.timepoint
    %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c16} => !stream.timepoint
  } else {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c64} => !stream.timepoint
    %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c64} => !stream.timepoint
  }
  scf.for %i = %k to %j step %b {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c32} => !stream.timepoint
    %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c32} => !stream.timepoint
  }
  %none = arith.subi %j, %c7 : index
  scf.for %i = %c4 to %none step %c4 {
    %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%c1000} => !stream.timepoint
    %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%c1000} => !stream.timepoint
  }
  return
}

// -----

// An entry that is neither a shape nor an integer is an error.
// RUN: not ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=4x5,1.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPELLING
// SPELLING: error: input-shapes: '1.5' is neither a tensor's shape (like 3x5) nor an integer scalar's value (like -2)
// RUN: not ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=4x-5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: input-shapes: '4x-5' is neither a tensor's shape (like 3x5) nor an integer scalar's value (like -2)
// SPELLING-NOT: remark
// NEGATIVE-NOT: remark
func.func @spelling(%n: index) {
  return
}

// -----

// A size from a scalar argument the walk has no value for stays unknown,
// and the remark names the argument and why: no entry, an entry that is a
// shape, a value outside the argument's type, an argument of a callee
// whose caller does not know the value it passes.
// RUN: ferry-opt %s --split-input-file "--stream-estimate-peak-memory=input-shapes=2x3,300" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 2 (index), whose value input-shapes does not give)
// MISSING: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 0 (index), and input-shapes gives '2x3' for it, not an integer)
// MISSING: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 1 (i8), and input-shapes gives '300' for it, not an i8 value)
// MISSING: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 0 (index), and input-shapes gives '2x3' for it, not an integer)
// MISSING: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 0 (index), whose value the caller passes is not known)
// MISSING: remark: peak live bytes unknown: the peak of 'inner' is not known
// MISSING-NOT: peak live bytes:
func.func @no_entry(%v: !hal.buffer_view, %k: i8, %n: index) {
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
func.func @shape_entry(%n: index) {
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
func.func @out_of_range(%v: !hal.buffer_view, %k: i8) {
  %n = arith.index_cast %k : i8 to index
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
func.func private @inner(%m: index) {
  %s = stream.tensor.sizeof tensor<?xf32>{%m} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %f = stream.resource.dealloca await(%at) %a : !stream.resource<transient>{%s} => !stream.timepoint
  return
}
func.func @outer(%v: !hal.buffer_view, %k: i8, %n: index) {
  call @inner(%n) : (index) -> ()
  return
}
