// Values carried by loops across two devices whose links are left to run
// time: the buffers are allocated for every device that uses them inside
// the loop (exportable, so the other device can import them), each import
// of a carried buffer waits for what made it, and the liveness walk follows
// a carried buffer that moves from one device to the other.
//
// @captured: a fill on @a carried into a loop that adds to it on @b. Its
// buffer is used on both devices: allocated by whichever the run time
// selects, with SharingExport so the other imports it (before, the loop's
// uses did not count: "lacks SharingExport", a compile error).
// RUN: ferry-compile %s --compile-to=hal | FileCheck %s --check-prefix=HAL
// HAL-LABEL: func.func @captured
// HAL: hal.allocator.select from([
// HAL: scf.for
// HAL: hal.device.import_buffer<{{.+}}> buffer({{.+}}) wait(
// HAL-LABEL: func.func @moving
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=captured --input=4xf32=1,2,3,4 --input=index=3 --device=a=local-task --device=b=local-discrete --stats=%t.c.json | FileCheck %s --check-prefix=CAPTURED
// CAPTURED: 4xf32=[4 7 10 13]
// On devices that share memory each device's peak is its walk: the fill
// and the input on @a, nothing allocated on @b. A discrete @b imports the
// carried buffer and the input (memory the runtime adds, outside the walk):
// 32 bytes there.
// RUN: %python %S/../check_stats.py %t.c.json --device=a live_bytes_at_exit=0 peak_bytes=32 --device=b live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --function=captured --input=4xf32=1,2,3,4 --input=index=3 --device=a=local-sync --device=b=local-sync --stats=%t.c.sync.json | FileCheck %s --check-prefix=CAPTURED
// RUN: %python %S/../check_stats.py %t.c.sync.json --device=a live_bytes_at_exit=0 peak_bytes=32 --device=b live_bytes_at_exit=0 peak_bytes=0
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark|^func.func @" | grep -A5 "func.func @captured" | FileCheck %s --check-prefix=CAPTURED-WALK
// CAPTURED-WALK: remark: peak live bytes on @a: 32 (inputs 16, allocated 16)
// CAPTURED-WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
//
// @moving: the loop's initial value is made on @b, every iteration makes
// the next on @a (x * x, read twice so it is a dispatch of its own, to
// which the fused adds add the carried value in place) and frees the one
// before. The walk
// counts the first iteration moving 16 bytes from @b to @a and the second
// leaving what it found (before, it counted the free on @b every time:
// "an iteration of 'scf.for' leaves 0 bytes more live than it found").
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark" | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes on @a: 48 (inputs 16, allocated 32)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// RUN: ferry-run %t.fvm --function=moving --input=4xf32=1,2,3,4 --input=index=3 --device=a=local-sync --device=b=local-sync --stats=%t.m.json | FileCheck %s --check-prefix=MOVING
// MOVING: 4xf32=[8 26 56 98]
// RUN: %python %S/../check_stats.py %t.m.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
//
// @calls_moving: the same loop in a callee; its result, made on @a by the
// last iteration, is counted on @a in the caller too (before, on @b, where
// the loop's initial value was), and on @b as well, where it stays when the
// loop runs no iteration (the callee's walk says its result may be on
// either: the caller's import counts it on both, an upper bound).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark|^func.func @" | tail -4 | FileCheck %s --check-prefix=CALLER-WALK
// CALLER-WALK: remark: peak live bytes on @a: 48 (inputs 16, allocated 16)
// CALLER-WALK-NEXT: func.func @calls_moving
// CALLER-WALK-NEXT: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// CALLER-WALK-NEXT: func.func @calls_moving
// RUN: ferry-run %t.fvm --function=calls_moving --input=4xf32=1,2,3,4 --input=index=3 --device=a=local-sync --device=b=local-sync --stats=%t.cm.json | FileCheck %s --check-prefix=CALLS-MOVING
// CALLS-MOVING: 4xf32=[9 28 59 102]
// RUN: %python %S/../check_stats.py %t.cm.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
//
// @moving_then_more: the loop of @moving, then a product on @b while its
// result is live. A loop of dynamic trip count may run no iteration and
// leave its result on @b, where its initial value is: the walk keeps, on
// each device, the larger of the live bytes with and without iterations
// (before, it counted the result on @a only and said 16 bytes on @b, while
// a run with n = 0 peaks at 32 there).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark|^func.func @" | grep -A2 "func.func @moving_then_more" | FileCheck %s --check-prefix=MORE-WALK
// MORE-WALK: remark: peak live bytes on @a: 48 (inputs 16, allocated 32)
// MORE-WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 32)
// RUN: ferry-run %t.fvm --function=moving_then_more --input=4xf32=1,2,3,4 --input=index=0 --device=a=local-sync --device=b=local-sync --stats=%t.m0.json | FileCheck %s --check-prefix=MORE0
// MORE0: 4xf32=[2 2 2 2]
// MORE0-NEXT: 4xf32=[1 4 9 16]
// RUN: %python %S/../check_stats.py %t.m0.json --device=b peak_bytes=32 live_bytes_at_exit=0 --device=a live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --function=moving_then_more --input=4xf32=1,2,3,4 --input=index=2 --device=a=local-sync --device=b=local-sync --stats=%t.m2.json | FileCheck %s --check-prefix=MORE2
// MORE2: 4xf32=[6 18 38 66]
// MORE2-NEXT: 4xf32=[1 4 9 16]
// RUN: %python %S/../check_stats.py %t.m2.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @captured(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%k : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f) -> tensor<4xf32> {
      %s = arith.addf %acc, %x {stream.affinity = #hal.device.affinity<@b>} : tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
  func.func @moving(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k = arith.constant 2.0 : f32
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%k : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f) -> tensor<4xf32> {
      %t = arith.mulf %x, %x {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      %s = arith.addf %t, %acc {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      %s2 = arith.addf %s, %t {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      scf.yield %s2 : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
  func.func @moving_then_more(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k = arith.constant 2.0 : f32
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%k : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f) -> tensor<4xf32> {
      %t = arith.mulf %x, %x {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      %s = arith.addf %t, %acc {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      %s2 = arith.addf %s, %t {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      scf.yield %s2 : tensor<4xf32>
    }
    %u = arith.mulf %x, %x {stream.affinity = #hal.device.affinity<@b>} : tensor<4xf32>
    return %r, %u : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @moving_callee(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
    %r = call @moving(%x, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @calls_moving(%x: tensor<4xf32>, %n: index) -> tensor<4xf32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %r = call @moving_callee(%x, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
    %y = arith.addf %r, %x {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
    return %y : tensor<4xf32>
  }
}
