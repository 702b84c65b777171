// input-shapes may name the function an entry list is for: `@NAME:ENTRY`
// starts NAME's own list, the entries after it continue it, and entries
// before any `@` are for every other function (the list of old, which is
// what an input-shapes without `@` still means).

// One list for each function: the tensor function's shape and the scalar
// function's value no longer take each other's place.
// RUN: ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@with_tensor:4x3,2,@with_scalar:5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMED
// NAMED: remark: peak live bytes: 56 (inputs 48, allocated 8)
// NAMED-NEXT: func.func @with_tensor
// NAMED: remark: peak live bytes: 20 (inputs 0, allocated 20)
// NAMED-NEXT: func.func @with_scalar
// A list for every function: the scalar function's first argument gets the
// shape entry (as before), and the remark says so.
// RUN: ferry-opt %s "--stream-estimate-peak-memory=input-shapes=4x3,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMMON
// COMMON: remark: peak live bytes: 56 (inputs 48, allocated 8)
// COMMON-NEXT: func.func @with_tensor
// COMMON: remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 0 (index), and input-shapes gives '4x3' for it, not an integer)
// Both: the unnamed entries are for the functions not named.
// RUN: ferry-opt %s "--stream-estimate-peak-memory=input-shapes=7,@with_tensor:4x3,2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: remark: peak live bytes: 56 (inputs 48, allocated 8)
// MIXED-NEXT: func.func @with_tensor
// MIXED: remark: peak live bytes: 28 (inputs 0, allocated 28)
// MIXED-NEXT: func.func @with_scalar
func.func @with_tensor(%v: !hal.buffer_view, %k: index) {
  %d0 = hal.buffer_view.dim<%v : !hal.buffer_view>[0] : index
  %s = stream.tensor.sizeof tensor<?x3xf32>{%d0} : index
  %in = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<?x3xf32>{%d0} in !stream.resource<external>{%s}
  %sk = stream.tensor.sizeof tensor<?xf32>{%k} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%sk} => !stream.timepoint
  return
}
func.func @with_scalar(%n: index) {
  %s = stream.tensor.sizeof tensor<?xf32>{%n} : index
  %a, %at = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  return
}

// Errors: a name that is no function with a body, a name without an entry,
// a function named twice, an entry of a named list that is no entry.
// RUN: not ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@missing:3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: input-shapes: '@missing:3' names no function with a body of the module
// RUN: not ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@declared:3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING2
// MISSING2: error: input-shapes: '@declared:3' names no function with a body of the module
// RUN: not ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@f" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: error: input-shapes: '@f' names no function and entry (write @NAME:ENTRY, like @main:3x5)
// RUN: not ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@f:1,@f:2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: input-shapes: '@f' is named twice; give each function's entries once, in order
// RUN: not ferry-opt %s "--stream-estimate-peak-memory=input-shapes=@f:1.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPELLING
// SPELLING: error: input-shapes: '1.5' is neither a tensor's shape (like 3x5) nor an integer scalar's value (like -2)
// MISSING-NOT: remark
// MISSING2-NOT: remark
// NOENTRY-NOT: remark
// TWICE-NOT: remark
// SPELLING-NOT: remark
func.func private @declared(index)
func.func @f(%n: index) {
  return
}
