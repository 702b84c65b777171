// A cf.switch (what scf.index_switch becomes) has no bytecode encoding:
// ferry-compile lowers it to a chain of compares and br.cond first
// (ferry-lower-switch-to-branches), so each case and the default run.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --input=4xi32=1,2,3,4 --input=i32=5 | FileCheck %s --check-prefix=FIVE
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --input=4xi32=1,2,3,4 --input=i32=7 | FileCheck %s --check-prefix=SEVEN
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --input=4xi32=1,2,3,4 --input=i32=-7 | FileCheck %s --check-prefix=DEFAULT
// RUN: %python %S/check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --stats=%t.wc3.json --input=4xi32=1,2,3,4 --input=i32=0 | FileCheck %s --check-prefix=DEFAULT
// RUN: %python %S/check_stats.py %t.wc3.json live_bytes_at_exit=0 peak_bytes=32
// Peak equals the liveness walk's (the input and the sum).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @main
// FIVE: 4xi32=[2 4 6 8]
// FIVE-NEXT: i32=12
// SEVEN: i32=3
// DEFAULT: i32=1
func.func @main(%x: tensor<4xi32>, %flag: i32) -> (tensor<4xi32>, i32) {
  %y = arith.addi %x, %x : tensor<4xi32>
  %r = call @switch(%flag) : (i32) -> i32
  return %y, %r : tensor<4xi32>, i32
}

// A scalar function keeps its blocks (only tensor functions are lifted to
// scf), so its cf.switch reaches the bytecode lowering as written.
func.func private @switch(%flag: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  cf.switch %flag : i32, [
    default: ^a,
    5: ^b(%flag : i32),
    7: ^c
  ]
^a:
  return %c1 : i32
^b(%x: i32):
  %y = arith.addi %x, %x : i32
  %z = arith.addi %y, %c1 : i32
  %w = arith.addi %z, %c1 : i32
  return %w : i32
^c:
  return %c3 : i32
}
