// Results the host lends an argument's buffer for (iree.abi.tied on a public
// function) are written into that buffer: the program allocates nothing for
// them and copies nothing into them. The only allocations are ferry-run's
// uploads of the inputs.
// RUN: ferry-compile %s -o %t.fvm
//
// acc + x, written into acc: the dispatch writes acc directly.
// RUN: ferry-run %t.fvm --function=accumulate --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.acc.json | FileCheck %s --check-prefix=ACC
// ACC: 4xi32=[11 22 33 44]
// ACC-EMPTY:
// RUN: %python %S/check_stats.py %t.acc.json allocations=2 copies=0 dispatches=1 live_bytes_at_exit=0 peak_bytes=32
//
// A chain of elementwise ops ends in acc: one fused dispatch, writing it in
// place.
// RUN: ferry-run %t.fvm --function=chain --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.chain.json | FileCheck %s --check-prefix=CHAIN
// CHAIN: 4xi32=[11 44 99 176]
// RUN: %python %S/check_stats.py %t.chain.json allocations=2 copies=0 dispatches=1 live_bytes_at_exit=0 peak_bytes=32
//
// An output parameter the function never reads: x + x is written there.
// RUN: ferry-run %t.fvm --function=out_param --input=4xi32=1,2,3,4 --input=4xi32=0,0,0,0 --stats=%t.out.json | FileCheck %s --check-prefix=OUT
// OUT: 4xi32=[2 4 6 8]
// RUN: %python %S/check_stats.py %t.out.json allocations=2 copies=0 live_bytes_at_exit=0 peak_bytes=32
//
// linalg.fill of a lent buffer of dynamic shape fills it in place.
// RUN: ferry-run %t.fvm --function=fill --input=3xi32=1,2,3 --stats=%t.fill.json | FileCheck %s --check-prefix=FILL
// FILL: 3xi32=[7 7 7]
// RUN: %python %S/check_stats.py %t.fill.json allocations=1 copies=0 fills=1 live_bytes_at_exit=0 peak_bytes=12
//
// An untied result returning the lent argument gets its original value.
// RUN: ferry-run %t.fvm --function=original_too --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.both.json | FileCheck %s --check-prefix=BOTH
// BOTH: 4xi32=[11 22 33 44]
// BOTH-NEXT: 4xi32=[10 20 30 40]
// RUN: %python %S/check_stats.py %t.both.json live_bytes_at_exit=0 peak_bytes=64
//
// A result whose shape differs from the buffer lent for it is an error
// naming both.
// RUN: not ferry-run %t.fvm --function=fill_dynamic --input=3xi32=1,2,3 --input=2xi32=0,0 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: {{.+}} (assert): result 0 and argument 1 (iree.abi.tied) of 'fill_dynamic' at {{.+}}tied_arguments.mlir:{{[0-9]+}}:{{[0-9]+}} differ in dimension 0
//
// The liveness walk agrees: nothing is allocated beyond the inputs.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 32, allocated 0)
// WALK-NEXT: func.func @accumulate
// WALK: remark: peak live bytes: 32 (inputs 32, allocated 0)
// WALK-NEXT: func.func @chain
// WALK: remark: peak live bytes: 32 (inputs 32, allocated 0)
// WALK-NEXT: func.func @out_param
// WALK: remark: peak live bytes: 12 (inputs 12, allocated 0)
// WALK-NEXT: func.func @fill
// WALK: remark: peak live bytes: 64 (inputs 32, allocated 32)
// WALK-NEXT: func.func @original_too

func.func @accumulate(%x: tensor<4xi32>, %acc: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @chain(%x: tensor<4xi32>, %acc: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  %1 = arith.muli %0, %x : tensor<4xi32>
  return %1 : tensor<4xi32>
}
func.func @out_param(%x: tensor<4xi32>, %out: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @fill(%out: tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 0 : index}) {
  %c7 = arith.constant 7 : i32
  %0 = linalg.fill ins(%c7 : i32) outs(%out : tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
func.func @original_too(%x: tensor<4xi32>, %acc: tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}, tensor<4xi32>) {
  %0 = arith.addi %acc, %x : tensor<4xi32>
  return %0, %acc : tensor<4xi32>, tensor<4xi32>
}
func.func @fill_dynamic(%x: tensor<?xi32>, %out: tensor<?xi32>) -> (tensor<?xi32> {iree.abi.tied = 1 : index}) {
  %0 = arith.addi %x, %x : tensor<?xi32>
  return %0 : tensor<?xi32>
}
