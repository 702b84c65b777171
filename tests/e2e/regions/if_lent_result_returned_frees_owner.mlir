// %t is owned; where %c is clear and %d set, the inner scf.if writes %t in place and yields it lent (its owned
// flag clear), and @main returns it: the caller gets %t. Where the
// branches make a new buffer instead, the returned value is that buffer
// and %t must be freed. Before, reference counting saw %t exported (as
// what a position it was lent to holds) and handed it to the caller on
// every way: on the others nothing freed it, and its memory went back only
// with the last reference (--stats reclaimed_at_last_reference 1; random
// seed 3). Now it is handed over where the flags on the way are clear and
// freed where one is set, as for a value a block's terminator passes on.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: %[[T:result]], %{{.*}} = stream.resource.alloca
// IR: %[[R:[0-9]+]]:4 = scf.if %arg1
// IR: scf.yield %[[T]], %false
// IR: stream.resource.dealloca origin if(%[[R]]#1) await(%{{[0-9]+}}) %[[T]] :
// IR: stream.tensor.export
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,0,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK00
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,0,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK01
// WALK00: remark: peak live bytes: 64 (inputs 16, allocated 48)
// WALK01: remark: peak live bytes: 48 (inputs 16, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.00.json --input=4xi32=1,2,3,4 --input=i1=0 --input=i1=0 | FileCheck %s --check-prefix=SEVEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.00.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 peak_bytes=64 allocations=4 deallocations=4 copies=0
// RUN: ferry-run %t.fvm --stats=%t.01.json --input=4xi32=1,2,3,4 --input=i1=0 --input=i1=1 | FileCheck %s --check-prefix=SAME --match-full-lines
// RUN: %python %S/../check_stats.py %t.01.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 peak_bytes=48 copies=0
// RUN: ferry-run %t.fvm --device=__device_0=local-task --stats=%t.10.json --input=4xi32=1,2,3,4 --input=i1=1 --input=i1=0 | FileCheck %s --check-prefix=SQUARE --match-full-lines
// RUN: %python %S/../check_stats.py %t.10.json live_bytes_at_exit=0 reclaimed_at_last_reference=0 copies=0
// SEVEN: 4xi32=[7 7 7 7]
// SAME: 4xi32=[1 2 3 4]
// SQUARE: 4xi32=[0 -2 -6 -12]
func.func @main(%a: tensor<4xi32>, %c: i1, %d: i1) -> tensor<4xi32> {
  %t = arith.addi %a, %a : tensor<4xi32>
  %r:2 = scf.if %c -> (tensor<4xi32>, tensor<4xi32>) {
    %x = arith.muli %a, %a : tensor<4xi32>
    %y = arith.subi %a, %x : tensor<4xi32>
    scf.yield %x, %y : tensor<4xi32>, tensor<4xi32>
  } else {
    %in = scf.if %d -> (tensor<4xi32>) {
      %u = arith.subi %t, %a : tensor<4xi32>
      scf.yield %u : tensor<4xi32>
    } else {
      %v = arith.constant dense<7> : tensor<4xi32>
      scf.yield %v : tensor<4xi32>
    }
    %w = arith.constant dense<9> : tensor<4xi32>
    scf.yield %w, %in : tensor<4xi32>, tensor<4xi32>
  }
  return %r#1 : tensor<4xi32>
}
