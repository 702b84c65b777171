// Sizes computed from scalar arguments: the liveness walk is given each
// scalar's value (input-shapes: one entry per argument, a tensor's shape or
// an integer scalar's value) and evaluates the index arithmetic on it, so
// the allocator's peak_bytes equals the walk's for each value; nothing is
// live at exit.
// Both tools' --help say how the walk is given them.
// RUN: ferry-compile --help | FileCheck %s --check-prefix=HELP
// HELP: given one input-shapes entry per argument: a tensor's shape, or an
// HELP-NEXT: integer scalar's value
// HELP: --stream-estimate-peak-memory=input-shapes=2x3,5
// HELP-NEXT: input-shapes=@main:2x3,5,@step:4 for two functions
// RUN: ferry-opt --help | FileCheck %s --check-prefix=OPTHELP
// OPTHELP: --input-shapes=<string> {{.*}} One entry per argument, in order: a tensor's shape (e.g. 3x5; empty for rank 0) for its dynamic dimensions, or an integer scalar's value (e.g. -2) for sizes computed from it; empty for a float. For every function, except that @NAME:ENTRY starts function NAME's own list
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --compile-to=stream-cmd -o %t.cmd.mlir

// An arith expression of an i32 and an i64 (the arith form of an affine
// map): rows = %j < 0 ? 1 : max((3k + 1) floordiv 2, j ceildiv 2).
// k=3, j=4: 5 rows of 20 bytes.
// RUN: ferry-run %t.fvm --function=expr --input=4x5xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --input=i32=3 --input=i64=4 --stats=%t.e1.json | FileCheck %s --check-prefix=EXPR1
// EXPR1: 5x5xf32=
// RUN: %python %S/check_stats.py %t.e1.json live_bytes_at_exit=0 peak_bytes=180
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4x5,3,4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPRWALK1
// EXPRWALK1:      remark: peak live bytes: 180 (inputs 80, allocated 100)
// EXPRWALK1-NEXT: func.func @expr
// k=3, j=11: 6 rows.
// RUN: ferry-run %t.fvm --function=expr --device=__device_0=local-task --input=4x5xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --input=i32=3 --input=i64=11 --stats=%t.e2.json | FileCheck %s --check-prefix=EXPR2
// EXPR2: 6x5xf32=
// RUN: %python %S/check_stats.py %t.e2.json live_bytes_at_exit=0 peak_bytes=200
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4x5,3,11 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPRWALK2
// EXPRWALK2:      remark: peak live bytes: 200 (inputs 80, allocated 120)
// EXPRWALK2-NEXT: func.func @expr
// j=-5 (a negative value): 1 row.
// RUN: ferry-run %t.fvm --function=expr --input=4x5xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --input=i32=0 --input=i64=-5 --stats=%t.e3.json | FileCheck %s --check-prefix=EXPR3
// EXPR3: 1x5xf32=
// RUN: %python %S/check_stats.py %t.e3.json live_bytes_at_exit=0 peak_bytes=100
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4x5,0,-5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPRWALK3
// EXPRWALK3:      remark: peak live bytes: 100 (inputs 80, allocated 20)
// EXPRWALK3-NEXT: func.func @expr

// An scf.if on an i1 argument: the walk takes the branch the value picks
// (not the larger one). Its else branch calls @rows with the scalar %n,
// whose value the callee's walk gets from the caller's.
// RUN: ferry-run %t.fvm --function=branch --input=4x5xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --input=index=2 --input=i1=0 --stats=%t.b0.json | FileCheck %s --check-prefix=ROWS
// ROWS: 2x5xf32=[1 2 3 4 5][6 7 8 9 10]
// RUN: %python %S/check_stats.py %t.b0.json live_bytes_at_exit=0 peak_bytes=120
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4x5,2,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWSWALK
// ROWSWALK:      remark: peak live bytes: 120 (inputs 80, allocated 40)
// ROWSWALK-NEXT: func.func @branch
// RUN: ferry-run %t.fvm --function=branch --input=4x5xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --input=index=2 --input=i1=1 --stats=%t.b1.json | FileCheck %s --check-prefix=BIG
// BIG: 8x5xf32=
// RUN: %python %S/check_stats.py %t.b1.json live_bytes_at_exit=0 peak_bytes=240
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4x5,2,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGWALK
// BIGWALK:      remark: peak live bytes: 240 (inputs 80, allocated 160)
// BIGWALK-NEXT: func.func @branch

// A loop whose trip count is a scalar: with 0 the walk counts no iteration
// (its body's 400-byte fill never happens), with 3 one iteration's peak.
// RUN: ferry-run %t.fvm --function=loop --input=4xi32=1,2,3,4 --input=index=0 --stats=%t.l0.json | FileCheck %s --check-prefix=LOOP0
// LOOP0: 4xi32=[1 2 3 4]
// RUN: %python %S/check_stats.py %t.l0.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPWALK0
// LOOPWALK0:      remark: peak live bytes: 32 (inputs 16, allocated 16)
// LOOPWALK0-NEXT: func.func @loop
// RUN: ferry-run %t.fvm --function=loop --input=4xi32=1,2,3,4 --input=index=3 --stats=%t.l3.json | FileCheck %s --check-prefix=LOOP3
// LOOP3: 4xi32=[4 5 6 7]
// RUN: %python %S/check_stats.py %t.l3.json live_bytes_at_exit=0 peak_bytes=432
// RUN: ferry-opt %t.cmd.mlir --stream-estimate-peak-memory=input-shapes=4,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPWALK3
// LOOPWALK3:      remark: peak live bytes: 432 (inputs 16, allocated 416)
// LOOPWALK3-NEXT: func.func @loop
// One walk of the whole module, each function given its own entries
// (@NAME:ENTRY starts a function's list), agrees with each run above.
// RUN: ferry-opt %t.cmd.mlir "--stream-estimate-peak-memory=input-shapes=@expr:4x5,3,4,@branch:4x5,2,1,@loop:4,3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLWALK
// ALLWALK:      remark: peak live bytes: 180 (inputs 80, allocated 100)
// ALLWALK-NEXT: func.func @expr
// ALLWALK:      remark: peak live bytes: 240 (inputs 80, allocated 160)
// ALLWALK-NEXT: func.func @branch
// ALLWALK:      remark: peak live bytes: 432 (inputs 16, allocated 416)
// ALLWALK-NEXT: func.func @loop

func.func @expr(%x: tensor<4x5xf32>, %k: i32, %j: i64) -> tensor<?x5xf32> {
  %n = arith.index_cast %k : i32 to index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = arith.muli %n, %c3 : index
  %u = arith.addi %t, %c1 : index
  %v = arith.floordivsi %u, %c2 : index
  %jj = arith.index_cast %j : i64 to index
  %w = arith.ceildivsi %jj, %c2 : index
  %z = arith.maxsi %v, %w : index
  %c0 = arith.constant 0 : index
  %neg = arith.cmpi slt, %jj, %c0 : index
  %m = arith.select %neg, %c1, %z : index
  %e = tensor.empty(%m) : tensor<?x5xf32>
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %f : tensor<?x5xf32>
}

func.func @branch(%x: tensor<?x5xf32>, %n: index, %big: i1) -> tensor<?x5xf32> {
  %r = scf.if %big -> tensor<?x5xf32> {
    %c8 = arith.constant 8 : index
    %e = tensor.empty(%c8) : tensor<?x5xf32>
    %c = arith.constant 2.0 : f32
    %f = linalg.fill ins(%c : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
    scf.yield %f : tensor<?x5xf32>
  } else {
    %s = func.call @rows(%x, %n) : (tensor<?x5xf32>, index) -> tensor<?x5xf32>
    scf.yield %s : tensor<?x5xf32>
  }
  return %r : tensor<?x5xf32>
}

func.func private @rows(%x: tensor<?x5xf32>, %n: index) -> tensor<?x5xf32> {
  %s = tensor.extract_slice %x[0, 0] [%n, 5] [1, 1] : tensor<?x5xf32> to tensor<?x5xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %r = linalg.copy ins(%s : tensor<?x5xf32>) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}

func.func @loop(%x: tensor<4xi32>, %n: index) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4xi32> {
    %e = tensor.empty() : tensor<100xi32>
    %k = arith.index_cast %i : index to i32
    %f = linalg.fill ins(%k : i32) outs(%e : tensor<100xi32>) -> tensor<100xi32>
    %r = tensor.extract_slice %f[0] [4] [1] : tensor<100xi32> to tensor<4xi32>
    %t = arith.addi %acc, %r : tensor<4xi32>
    scf.yield %t : tensor<4xi32>
  }
  return %l : tensor<4xi32>
}
