// An scf.for of a trip count the walk cannot evaluate (a call's result)
// whose second carried value starts owned (a constant) and is the host's
// input after every iteration (random seed 8789, reduced). The walk counts
// that result, owned where the loop runs no iteration, live until its free
// after the loop (an upper bound, said in a remark), but it did so before
// checking that the last iteration walked leaves what it found, and then
// blamed the iteration for the result's bytes ("leaves 64 bytes more live":
// no peak).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4x4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes are an upper bound
// WALK: remark: peak live bytes: 272 (inputs 64, allocated 288)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.json --input=4x4xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=272 copies=0
// (2 iterations: 0 + 0, then 0 + the input.)
// OUT: 4x4xi32=[1 2 3 4][5 6 7 8][9 10 11 12][13 14 15 16]
func.func private @trips() -> i32 {
  %two = arith.constant 2 : i32
  return %two : i32
}
func.func @main(%input: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %zero = arith.constant dense<0> : tensor<4x4xi32>
  %n = call @trips() : () -> i32
  %start = arith.constant dense<0> : tensor<4x4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : i32
  %masked = arith.andi %n, %c3 : i32
  %count = arith.index_cast %masked : i32 to index
  %r:2 = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %start, %other = %zero) -> (tensor<4x4xi32>, tensor<4x4xi32>) {
    %less = arith.cmpi ult, %start, %input : tensor<4x4xi32>
    %sum = arith.addi %acc, %other : tensor<4x4xi32>
    scf.yield %sum, %input : tensor<4x4xi32>, tensor<4x4xi32>
  }
  return %r#0 : tensor<4x4xi32>
}
