// A rank-reducing extract_slice whose sizes are SSA values but for a static
// leading 1: MLIR drops the static unit dim (ExtractSliceOp::getDroppedDims),
// not the trailing one whose size is 1 at run time, so the ?x? slice is 2x1
// and the cast to 2x1 holds. The random test's reference dropped the
// trailing dim and refused the cast (seed 1789: "shape [1, 2] is not
// [2, 1]"); tests/e2e/reference_evaluator.mlir runs it on this file.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=1x4x1xi32=1,2,3,4 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=24
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x4x1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 24 (inputs 16, allocated 8)
// CHECK:      2x1xi32=[2][3]
// CHECK-EMPTY:

func.func @main(%a: tensor<1x4x1xi32>) -> tensor<2x1xi32> {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %a[0, 1, 0] [1, %c2, %c1] [1, 1, 1] : tensor<1x4x1xi32> to tensor<?x?xi32>
  %t = tensor.cast %s : tensor<?x?xi32> to tensor<2x1xi32>
  %e = tensor.empty() : tensor<2x1xi32>
  %r = linalg.copy ins(%t : tensor<2x1xi32>) outs(%e : tensor<2x1xi32>) -> tensor<2x1xi32>
  return %r : tensor<2x1xi32>
}
