// A loop of dynamic trip count nested in another, moving its carried
// buffer from @a (its initial value) to @b (each iteration's): run no
// time, it leaves the buffer on @a, where the outer body then allocates
// 16 more bytes while it is live. The walk gave each device the larger of
// its counts with and without iterations only for a loop not nested in a
// loop (nested, the outer iteration then left more live than it found), so
// it said 32 on @a where ferry-run measures 48 for no inner iteration. Now
// the inner loop's result is on both devices after it, counted on each by
// the larger count and freed on each, so the outer iteration leaves what
// it found: @a peaks at 48 with no inner iteration and @b at 32 with some,
// each the walk's figure, an upper bound for the other trip counts (the
// walk says so in a remark).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes per device are an upper bound after this loop: it may run no iteration
// WALK-NOT: an upper bound
// WALK: remark: peak live bytes: 48 (inputs 0, allocated 144)
// WALK: remark: peak live bytes on @a: 48 (inputs 0, allocated 80)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --input=f64=1.5 --input=i16=0 --stats=%t.0.json | FileCheck %s
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-sync --input=f64=1.5 --input=i16=3 --stats=%t.3.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.0.json --device=a live_bytes_at_exit=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.0.json --device=b live_bytes_at_exit=0 peak_bytes=0
// RUN: %python %S/../check_stats.py %t.3.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.3.json --device=b live_bytes_at_exit=0 peak_bytes=32
// CHECK: 2xf64=[7.5 7.5]

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
      %e3 = tensor.empty() : tensor<2xf64>
      %t3 = linalg.fill ins(%v : f64) outs(%e3 : tensor<2xf64>) -> tensor<2xf64>
      %u = arith.addf %r2, %t3 : tensor<2xf64>
      %s = arith.addf %u, %acc : tensor<2xf64>
      scf.yield %s : tensor<2xf64>
    }
    return %r : tensor<2xf64>
  }
}
