// Two dynamic inputs of the same element count but different shapes must
// not be combined elementwise: the program checks their dimensions and
// ferry-run names the op, where it is and the dimension (in the ASan build
// of this suite, LeakSanitizer also checks that the failed run leaks
// nothing). Matching shapes run as before.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=3x2xi32=1,2,3,4,5,6 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: ferry-run: error: function 'main' at code offset {{[0-9]+}} (assert): operands of 'arith.addi' at {{.+}}dim_mismatch.mlir:16:8 differ in dimension 0{{$}}
// RUN: not ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=2x2xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=COLS
// COLS: ferry-run: error: {{.*}}operands of 'arith.addi' at {{.+}} differ in dimension 1{{$}}
// RUN: ferry-run %t.fvm --input=2x3xi32=1,2,3,4,5,6 --input=2x3xi32=10,20,30,40,50,60 --stats=%t.json | FileCheck %s
// CHECK: 2x3xi32=[11 22 33][44 55 66]
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=72

func.func @main(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = arith.addi %a, %b : tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// Peak equals the liveness walk's (checked here, below the function, so
// the locations checked above stay put).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x3,2x3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 72 (inputs 48, allocated 24)
