// A loop nested in another whose carried buffer moves device (its initial
// value made on @a, each iteration's fill on @b): the walk of the outer
// body walks the inner loop again, and the inner loop's iteration argument
// starts on @a each time. The walk kept @b from the earlier walk, freed
// the initial value on the wrong device and gave no peak ("an iteration of
// 'scf.for' leaves 0 bytes more live than it found"; the random test's
// seed 209 with two devices and nested loops). Now each device peaks at
// 32 bytes, as ferry-run measures for 1 to 3 inner iterations, and
// nothing is live at exit.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes: 32 (inputs 0, allocated 112)
// WALK: remark: peak live bytes on @a: 32 (inputs 0, allocated 48)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --input=f64=1.5 --input=i16=1 --stats=%t.1.json | FileCheck %s
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-sync --input=f64=1.5 --input=i16=3 --stats=%t.3.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.1.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.1.json --device=b live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.3.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.3.json --device=b live_bytes_at_exit=0 peak_bytes=32
// CHECK: 2xf64=[4.5 4.5]

module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%v: f64, %n: i16) -> tensor<2xf64> attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<2xf64>
    %t0 = linalg.fill ins(%v : f64) outs(%e0 : tensor<2xf64>) -> tensor<2xf64>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %t0) -> (tensor<2xf64>) {
      %e1 = tensor.empty() : tensor<2xf64>
      %t1 = linalg.fill ins(%v : f64) outs(%e1 : tensor<2xf64>) -> tensor<2xf64>
      %k = arith.index_cast %n : i16 to index
      %r2 = scf.for %j = %c0 to %k step %c1 iter_args(%acc2 = %t1) -> (tensor<2xf64>) {
        %e2 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<2xf64>
        %t2 = linalg.fill ins(%v : f64) outs(%e2 : tensor<2xf64>) -> tensor<2xf64>
        scf.yield %t2 : tensor<2xf64>
      }
      %s = arith.addf %r2, %acc : tensor<2xf64>
      scf.yield %s : tensor<2xf64>
    }
    return %r : tensor<2xf64>
  }
}
