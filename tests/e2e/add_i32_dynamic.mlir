// The same program with a dynamic shape prints the same output, and the shape
// follows the input.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 | FileCheck %s
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4,4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK4
// WALK4: remark: peak live bytes: 48 (inputs 32, allocated 16)
// RUN: ferry-run %t.fvm --function=main --input=2xi32=-5,7 --input=2xi32=5,8 --stats=%t.json | FileCheck %s --check-prefix=TWO
// Two 8-byte inputs and one 8-byte result.
// RUN: %python %S/check_stats.py %t.json peak_bytes=24 live_bytes_at_exit=0
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 24 (inputs 16, allocated 8)
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=main --input=0xi32= --input=0xi32= | FileCheck %s --check-prefix=EMPTY
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=0
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=0,0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK0
// WALK0: remark: peak live bytes: 0 (inputs 0, allocated 0)
// CHECK: 4xi32=[11 22 33 44]
// TWO: 2xi32=[0 15]
// EMPTY: 0xi32=[]
func.func @main(%lhs: tensor<?xi32>, %rhs: tensor<?xi32>) -> tensor<?xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<?xi32>
  return %sum : tensor<?xi32>
}
