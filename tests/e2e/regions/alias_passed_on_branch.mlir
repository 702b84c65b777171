// An scf.for body yields %t at one position and, at the other, the result
// of an scf.if that yields %t in one branch and a new value in the other.
// Reference counting gives %t to its own position and passes the other a
// copy of the if's result where its owned flag is clear (the branch
// yielding %t ran): one copy per iteration with %c set, none without.
// Before, %t was indeterminate ("carried position 2 (before region) of
// 'scf.while' does not own it" in random seed 1977). The walk, told %c,
// follows the branch that runs; not told, the one that leaves the most live
// (an upper bound it states), and its flag: the copy is not made then.
// RUN: ferry-compile %s --compile-to=stream-cmd 2>&1 | FileCheck %s --check-prefix=IR --implicit-check-not=indeterminate
// IR: scf.if
// IR: %[[COPY:.+]]:3 = scf.if %{{.+}} -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint)
// IR: stream.cmd.copy
// IR: scf.yield %[[COPY]]#0,
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,4,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes are an upper bound: the walk cannot tell which region of 'scf.if' runs
// WALK: remark: peak live bytes: 80 (inputs 32, allocated 80)
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,4,3,1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK1 --implicit-check-not="upper bound"
// WALK1: remark: peak live bytes: 80 (inputs 32, allocated 80)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.1.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=3 --input=i1=1 | FileCheck %s --check-prefix=THEN --match-full-lines
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 peak_bytes=80 copies=3
// RUN: ferry-run %t.fvm --stats=%t.0.json --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --input=index=3 --input=i1=0 | FileCheck %s --check-prefix=ELSE --match-full-lines
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 peak_bytes=80 copies=0
// THEN: 4xi32=[26 52 78 104]
// ELSE: 4xi32=[157 602 1335 2356]
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>, %n: index, %c: i1) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<4xi32>, tensor<4xi32>) {
    %t = arith.addi %a, %y : tensor<4xi32>
    %s = scf.if %c -> (tensor<4xi32>) {
      scf.yield %t : tensor<4xi32>
    } else {
      %u = arith.muli %y, %y : tensor<4xi32>
      scf.yield %u : tensor<4xi32>
    }
    scf.yield %s, %t : tensor<4xi32>, tensor<4xi32>
  }
  %o = arith.addi %r#0, %r#1 : tensor<4xi32>
  return %o : tensor<4xi32>
}
