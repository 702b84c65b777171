// Copy kernels of slices that cut a dim at offset 0 with stride 1 (not
// contiguous: an outer dim runs over more than one row): the kernel loops
// over the tile's extent, not the full tensor's. ferry-compile failed on
// each ("'linalg.generic' op inferred input/output operand #1 has shape's
// dimension #1 to be 5, but found 2"; found by the random test's slices).
// An extract (a copy kernel into its result) and an insert into a
// consumed destination (a copy kernel in place): one copy each (of the
// tile's 16 and 36 bytes), no compute dispatch; peak equals the walk.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x5xf32=0,1,2,3,4,5,6,7,8,9 --input=4x2x3xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=3x3xi32=1,2,3,4,5,6,7,8,9 --stats=%t.json | FileCheck %s
// RUN: ferry-run %t.fvm --input=2x5xf32=0,1,2,3,4,5,6,7,8,9 --input=4x2x3xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=3x3xi32=1,2,3,4,5,6,7,8,9 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=2 bytes_copied=52 dispatches=0 peak_bytes=188
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=2 bytes_copied=52 dispatches=0 peak_bytes=188
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x4,3x2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 188 (inputs 172, allocated 16)
// WALK-NEXT: func.func @main
// dynamic's tile is 3x2 (input-shapes by argument position; main's are
// static).
// WALK: remark: peak live bytes: 88 (inputs 88, allocated 0)
// WALK-NEXT: func.func @dynamic
// CHECK:      2x2xf32=[0 1][5 6]
// CHECK-NEXT: 4x2x3xi32={{\[\[}}0 0 0][1 2 3]]{{\[\[}}0 0 0][4 5 6]]{{\[\[}}0 0 0][7 8 9]]{{\[\[}}0 0 0][0 0 0]]
// CHECK-EMPTY:

func.func @main(%a: tensor<2x5xf32>, %d: tensor<4x2x3xi32> {iree.abi.consume}, %t: tensor<3x3xi32>) -> (tensor<2x2xf32>, tensor<4x2x3xi32>) {
  %s = tensor.extract_slice %a[0, 0] [2, 2] [1, 1] : tensor<2x5xf32> to tensor<2x2xf32>
  %r = tensor.insert_slice %t into %d[0, 1, 0] [3, 1, 3] [1, 1, 1] : tensor<3x3xi32> into tensor<4x2x3xi32>
  return %s, %r : tensor<2x2xf32>, tensor<4x2x3xi32>
}

// With a dynamic tile dim the program checks that the full tensor holds
// the window the kernel writes: `loop mod 3` reaches 2 at most (the check
// took the mod for a product, 3 * 2, and failed: "operand 1 of
// 'linalg.generic' ... is too small in dimension 0 for the window the
// loops read").
// RUN: ferry-run %t.fvm --function=dynamic --input=4x4xi32=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --input=3x2xi32=1,2,3,4,5,6 --stats=%t.dyn.json | FileCheck %s --check-prefix=DYN
// RUN: %python %S/../check_stats.py %t.dyn.json live_bytes_at_exit=0 copies=1 bytes_copied=24 dispatches=0 peak_bytes=88
// DYN: 4x4xi32=[1 0 2 0][3 0 4 0][5 0 6 0][0 0 0 0]
func.func @dynamic(%d: tensor<4x4xi32> {iree.abi.consume}, %t: tensor<3x?xi32>) -> tensor<4x4xi32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c1 : tensor<3x?xi32>
  %r = tensor.insert_slice %t into %d[0, 0] [3, %n] [1, 2] : tensor<3x?xi32> into tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
