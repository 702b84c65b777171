// Arguments the host hands over (iree.abi.consume on a public function's
// argument): the program owns them from the call on, frees them after their
// last use and writes them in place, where a lent argument (the default)
// stays the host's and costs a fresh buffer for the first write. Whether
// the host really gave up every share is checked at run time where the
// argument enters (hal.buffer.allocation.claim): ferry-run keeps none, so
// the writes below are in place; an embedder that keeps a share gets the
// program's own copy instead (runtime/vm/buffer_claim_test.cpp).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP
// DUMP: hal.buffer.allocation.claim dst=r{{[0-9]+}} device=r{{[0-9]+}} buffer=r{{[0-9]+}}
//
// x + y then * y: both written into x's buffer. The only allocations are
// ferry-run's two inputs; the lent version needs a third buffer.
// RUN: ferry-run %t.fvm --function=add --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.add.json | FileCheck %s --check-prefix=ADD
// ADD: 4xi32=[110 440 990 1760]
// RUN: %python %S/check_stats.py %t.add.json allocations=2 copies=0 live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --function=add_lent --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.lent.json | FileCheck %s --check-prefix=ADD
// RUN: %python %S/check_stats.py %t.lent.json allocations=3 copies=0 live_bytes_at_exit=0 peak_bytes=48
//
// A fill of a consumed argument of dynamic shape fills it in place.
// RUN: ferry-run %t.fvm --function=fill --input=3xi32=1,2,3 --stats=%t.fill.json | FileCheck %s --check-prefix=FILL
// FILL: 3xi32=[7 7 7]
// FILL-EMPTY:
// RUN: %python %S/check_stats.py %t.fill.json allocations=1 fills=1 copies=0 live_bytes_at_exit=0 peak_bytes=12
//
// Read again after the write: the fill gets a buffer of its own, and the
// argument is returned unchanged.
// RUN: ferry-run %t.fvm --function=fill_keep --input=3xi32=1,2,3 --stats=%t.keep.json | FileCheck %s --check-prefix=KEEP
// KEEP: 3xi32=[7 7 7]
// KEEP-NEXT: 3xi32=[1 2 3]
// RUN: %python %S/check_stats.py %t.keep.json allocations=2 live_bytes_at_exit=0 peak_bytes=24
//
// The same on the threaded driver, and on the discrete testing device
// (where ferry-run also stages inputs and results through host memory).
// RUN: ferry-run %t.fvm --device=__device_0=local-task --function=add --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.task.json | FileCheck %s --check-prefix=ADD
// RUN: %python %S/check_stats.py %t.task.json allocations=2 live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --device=__device_0=local-discrete --function=add --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.discrete.json | FileCheck %s --check-prefix=ADD
// The staged copy of an input is on top of the walk's 32 there.
// RUN: %python %S/check_stats.py %t.discrete.json live_bytes_at_exit=0 peak_bytes=48
//
// The liveness walk agrees: a consumed argument is freed at its last use.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 32, allocated 0)
// WALK-NEXT: func.func @add(
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK-NEXT: func.func @add_lent(
// WALK: remark: peak live bytes: 12 (inputs 12, allocated 0)
// WALK-NEXT: func.func @fill(
// WALK: remark: peak live bytes: 24 (inputs 12, allocated 12)
// WALK-NEXT: func.func @fill_keep(

func.func @add(%x: tensor<4xi32> {iree.abi.consume}, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %x, %y : tensor<4xi32>
  %1 = arith.muli %0, %y : tensor<4xi32>
  return %1 : tensor<4xi32>
}
func.func @add_lent(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %x, %y : tensor<4xi32>
  %1 = arith.muli %0, %y : tensor<4xi32>
  return %1 : tensor<4xi32>
}
func.func @fill(%x: tensor<?xi32> {iree.abi.consume}) -> tensor<?xi32> {
  %c = arith.constant 7 : i32
  %0 = linalg.fill ins(%c : i32) outs(%x : tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
func.func @fill_keep(%x: tensor<3xi32> {iree.abi.consume}) -> (tensor<3xi32>, tensor<3xi32>) {
  %c = arith.constant 7 : i32
  %0 = linalg.fill ins(%c : i32) outs(%x : tensor<3xi32>) -> tensor<3xi32>
  return %0, %x : tensor<3xi32>, tensor<3xi32>
}
