// The liveness walk counts each allocation on the device that allocates it,
// as convert-stream-to-hal decides, and agrees with each device's allocator.
//
// @unplaced: the fill has no affinity, its buffer is used on @b, so the
// HAL lowering allocates it there (the first device of its uses; the
// default device @a comes last), and the add writes into it in place:
// @a holds the input (16), @b the fill (16). The walk counted the fill on
// @a (a 32, b 0).
//
// @caller: @twice runs on @b and returns a buffer @b allocated; the walk
// counts it on @b, not on the caller's @a (a 32, b 16 before).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark|^func.func @" | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @unplaced
// WALK-NEXT: remark: peak live bytes on @a: 16 (inputs 16, allocated 0)
// WALK-NEXT: func.func @unplaced
// WALK-NEXT: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// (then @twice's own walk, on @b)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// WALK-NEXT: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @caller
// WALK-NEXT: remark: peak live bytes on @a: 16 (inputs 16, allocated 0)
// WALK-NEXT: func.func @caller
// WALK-NEXT: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=unplaced --input=4xi32=1,2,3,4 --device=a=local-sync --device=b=local-sync --stats=%t.u.json | FileCheck %s --check-prefix=UNPLACED
// UNPLACED: 4xi32=[8 9 10 11]
// RUN: %python %S/../check_stats.py %t.u.json --device=a peak_bytes=16 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --function=caller --input=4xi32=1,2,3,4 --device=a=local-sync --device=b=local-sync --stats=%t.c.json | FileCheck %s --check-prefix=CALLER
// CALLER: 4xi32=[2 8 18 32]
// RUN: %python %S/../check_stats.py %t.c.json --device=a peak_bytes=16 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
hal.device.global @a = #hal.device.target<"local", {}>
hal.device.global @b = #hal.device.target<"local", {}>
func.func @unplaced(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %k = arith.constant 7 : i32
  %f = linalg.fill ins(%k : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %y = arith.addi %x, %f {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
  return %y : tensor<4xi32>
}
func.func private @twice(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@b>} {
  %y = arith.addi %x, %x : tensor<4xi32>
  return %y : tensor<4xi32>
}
func.func @caller(%x: tensor<4xi32>) -> tensor<4xi32>
    attributes {stream.affinity = #hal.device.affinity<@a>} {
  %y = call @twice(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %z = arith.muli %y, %x : tensor<4xi32>
  return %z : tensor<4xi32>
}
