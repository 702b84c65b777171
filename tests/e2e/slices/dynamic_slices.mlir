// Slices of dynamic shape: rows [%i, %i + %n) of a ?x? input, whole
// columns (the input's own dim), are contiguous: read in place by the copy
// dispatch (a view), and inserted into a consumed destination at row %i
// as one copy straight from the input's range into the destination's (the
// slice is a view, the insert an update: copies 1, 24 bytes). Run-time
// checks name the op: a range past the end, and a source whose dims
// differ from the insert's sizes.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4x3xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=5x3xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=index=1 --input=index=2 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=4x3xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=5x3xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=index=1 --input=index=2 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=1 allocations=3 peak_bytes=132
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=1 allocations=3 peak_bytes=132
// The walk sizes the copy's result from the scalar inputs' values (%i, %n
// after the shapes): the inputs' 108 bytes plus the 24 of the 2x3 result.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x3,5x3,1,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 132 (inputs 108, allocated 24)
// WALK-NEXT: func.func @main
// CHECK:      2x3xi32=[4 5 6][7 8 9]
// CHECK-NEXT: 5x3xi32=[0 0 0][1 2 3][4 5 6][0 0 0][0 0 0]
// CHECK-EMPTY:
// RUN: not ferry-run %t.fvm --input=4x3xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=5x3xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=index=3 --input=index=2 2>&1 | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: ferry-run: error: {{.*}}'tensor.extract_slice' at {{.*}}dynamic_slices.mlir:[[# @LINE + 7]]:8: dimension 0 is out of bounds
// RUN: not ferry-run %t.fvm --input=4x3xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=5x2xi32=0,0,0,0,0,0,0,0,0,0 --input=index=1 --input=index=2 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: ferry-run: error: {{.*}}'tensor.insert_slice' at {{.*}}dynamic_slices.mlir:[[# @LINE + 10]]:8: the source's dimension 1 differs from the slice's size in dimension 1

func.func @main(%a: tensor<?x?xi32>, %d: tensor<?x?xi32> {iree.abi.consume}, %i: index, %n: index) -> (tensor<?x?xi32>, tensor<?x?xi32>) {
  %c1 = arith.constant 1 : index
  %cols = tensor.dim %a, %c1 : tensor<?x?xi32>
  %s = tensor.extract_slice %a[%i, 0] [%n, %cols] [1, 1] : tensor<?x?xi32> to tensor<?x?xi32>
  %e = tensor.empty(%n, %cols) : tensor<?x?xi32>
  %r = linalg.copy ins(%s : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %dcols = tensor.dim %d, %c1 : tensor<?x?xi32>
  %s2 = tensor.extract_slice %a[0, 0] [%n, %cols] [1, 1] : tensor<?x?xi32> to tensor<?x?xi32>
  %w = tensor.insert_slice %s2 into %d[%i, 0] [%n, %dcols] [1, 1] : tensor<?x?xi32> into tensor<?x?xi32>
  return %r, %w : tensor<?x?xi32>, tensor<?x?xi32>
}
