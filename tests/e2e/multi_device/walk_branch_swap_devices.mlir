// An scf.if whose two results swap devices between its branches (@a and
// @b in the then branch, @b and @a in the else branch), then a buffer
// allocated on @b while result 1 is live. Each result is on both devices
// after the op; the larger of each device's counts after the branches
// (16 bytes on each) then undercounted, as the free of result 0 on both
// devices left nothing for result 1: the walk said 16 on @b where a run of
// the then branch peaks at 32 (the random test's seed 1022). Now each
// device counts the largest of the branches' live bytes without the
// results plus each result that may be on it, and the walk equals the
// then branch's run on both devices (and bounds the else branch's).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes: 32 (inputs 0, allocated 48)
// WALK: remark: peak live bytes on @a: 16 (inputs 0, allocated 16)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --input=f32=1.5 --input=i8=1 --stats=%t.then.json | FileCheck %s
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-sync --input=f32=1.5 --input=i8=0 --stats=%t.else.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.then.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.then.json --device=b live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.else.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.else.json --device=b live_bytes_at_exit=0 peak_bytes=16
// CHECK: 4xf32=[3 3 3 3]

module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%v: f32, %c: i8) -> tensor<4xf32> attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c0 = arith.constant 0 : index
    %z = arith.constant 0 : i8
    %cond = arith.cmpi ne, %c, %z : i8
    %r:2 = scf.if %cond -> (tensor<4xf32>, tensor<4xf32>) {
      %ea = tensor.empty() : tensor<4xf32>
      %ta = linalg.fill ins(%v : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
      %eb = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xf32>
      %tb = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f32) outs(%eb : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %ta, %tb : tensor<4xf32>, tensor<4xf32>
    } else {
      %eb = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xf32>
      %tb = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f32) outs(%eb : tensor<4xf32>) -> tensor<4xf32>
      %ea = tensor.empty() : tensor<4xf32>
      %ta = linalg.fill ins(%v : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %tb, %ta : tensor<4xf32>, tensor<4xf32>
    }
    %x = tensor.extract %r#0[%c0] : tensor<4xf32>
    %e = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xf32>
    %n = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = arith.addf %n, %r#1 : tensor<4xf32>
    return %s : tensor<4xf32>
  }
}
