// An scf.if choosing between two input tensors, each branch yielding one
// unchanged: it stays an if through the stream passes (the canonicalizer
// used to fold it into an arith.select of resources, which allocation
// scheduling refused: "'arith.select' makes a resource"). The chosen input
// is doubled and read on the host; no copy, nothing live at exit,
// peak_bytes equal to the walk, on both drivers.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=4xi32=5,6,7,8 --input=i1=1 --stats=%t.1.json | FileCheck %s --check-prefix=THEN --match-full-lines
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=4xi32=5,6,7,8 --input=i1=0 --stats=%t.0.json | FileCheck %s --check-prefix=ELSE --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=4xi32=5,6,7,8 --input=i1=0 --stats=%t.task.json | FileCheck %s --check-prefix=ELSE --match-full-lines
// THEN:      4xi32=[2 4 6 8]
// THEN-NEXT: i32=4
// ELSE:      4xi32=[10 12 14 16]
// ELSE-NEXT: i32=8
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: i1) -> (tensor<4xi32>, i32) {
  %c3 = arith.constant 3 : index
  %r = scf.if %c -> tensor<4xi32> {
    scf.yield %a : tensor<4xi32>
  } else {
    scf.yield %b : tensor<4xi32>
  }
  %d = arith.addi %r, %r : tensor<4xi32>
  %v = tensor.extract %r[%c3] : tensor<4xi32>
  return %d, %v : tensor<4xi32>, i32
}
