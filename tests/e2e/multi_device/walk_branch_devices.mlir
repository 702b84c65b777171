// An scf.if in a loop body whose branches leave its result on different
// devices: the then branch a new buffer on @b (freeing the carried one),
// the else branch the carried buffer, which each iteration makes on @a
// after the first (its initial value is on @b). The walk freed the result
// on the first branch's device only, so the second iteration left 16
// bytes on @a and 16 fewer on @b, and the walk gave no peak ("an iteration
// of 'scf.for' leaves 0 bytes more live than it found"; the random test's
// seed 388, and 244 with +two_device_region_tensor_ops). Now the result is
// on both devices after the op, counted on each by the larger branch and
// freed on each: the walk equals ferry-run's peak where the then branch
// runs, and bounds it on @b where the else branch runs.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes: 32 (inputs 0, allocated 80)
// WALK: remark: peak live bytes on @a: 16 (inputs 0, allocated 32)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 48)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --input=f64=1.5 --input=i8=1 --stats=%t.then.json | FileCheck %s
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-sync --input=f64=1.5 --input=i8=0 --stats=%t.else.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.then.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.then.json --device=b live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.else.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.else.json --device=b live_bytes_at_exit=0 peak_bytes=16
// CHECK: 2xf64=[1.5 1.5]

module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%v: f64, %c: i8) -> tensor<2xf64> attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %z = arith.constant 0 : i8
    %cond = arith.cmpi ne, %c, %z : i8
    %e0 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<2xf64>
    %t0 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f64) outs(%e0 : tensor<2xf64>) -> tensor<2xf64>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %t0) -> (tensor<2xf64>) {
      %f = scf.if %cond -> (tensor<2xf64>) {
        %e1 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<2xf64>
        %t1 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f64) outs(%e1 : tensor<2xf64>) -> tensor<2xf64>
        scf.yield %t1 : tensor<2xf64>
      } else {
        scf.yield %acc : tensor<2xf64>
      }
      %x = tensor.extract %f[%c0] : tensor<2xf64>
      %e2 = tensor.empty() : tensor<2xf64>
      %t2 = linalg.fill ins(%x : f64) outs(%e2 : tensor<2xf64>) -> tensor<2xf64>
      scf.yield %t2 : tensor<2xf64>
    }
    return %r : tensor<2xf64>
  }
}
