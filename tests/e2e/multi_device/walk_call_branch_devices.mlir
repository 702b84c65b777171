// A callee returning an scf.if's result whose branches make it on
// different devices (@b where %c is not 0, @a where it is), and a caller
// that allocates on @a while the result is live. The callee's walk told
// its caller the result was on the first branch's device only, so the
// caller counted it on @b and said 16 bytes on @a, where ferry-run
// measures 32 when the else branch runs (the random test's seed 296 with
// +two_device_region_tensor_ops, "peaks above the walk's upper bound for
// an scf.if"). Now the callee's result is on both devices, and the caller
// imports it on each: each device's figure is what one of the two runs
// measures, an upper bound for the other.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | grep -E "remark|^func.func @" | grep -A1 "remark: peak live bytes on" | tail -4 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes on @a: 32 (inputs 0, allocated 32)
// WALK-NEXT: func.func @main
// WALK-NEXT: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// WALK-NEXT: func.func @main
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --input=f32=1.5 --input=i8=0 --stats=%t.else.json | FileCheck %s
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-sync --input=f32=1.5 --input=i8=1 --stats=%t.then.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.else.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.else.json --device=b live_bytes_at_exit=0 peak_bytes=0
// RUN: %python %S/../check_stats.py %t.then.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.then.json --device=b live_bytes_at_exit=0 peak_bytes=16
// CHECK: 4xf32=[3 3 3 3]

module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @pick(%v: f32, %c: i8) -> tensor<4xf32> attributes {stream.affinity = #hal.device.affinity<@b>} {
    %z = arith.constant 0 : i8
    %cond = arith.cmpi ne, %c, %z : i8
    %r = scf.if %cond -> (tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %t = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    } else {
      %e = tensor.empty() {stream.affinity = #hal.device.affinity<@a>} : tensor<4xf32>
      %t = linalg.fill {stream.affinity = #hal.device.affinity<@a>} ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %t : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
  func.func @main(%v: f32, %c: i8) -> tensor<4xf32> attributes {stream.affinity = #hal.device.affinity<@a>} {
    %r = call @pick(%v, %c) : (f32, i8) -> tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %t = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = arith.addf %r, %t : tensor<4xf32>
    return %s : tensor<4xf32>
  }
}
