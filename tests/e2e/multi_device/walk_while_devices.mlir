// An scf.while whose after region replaces its carried buffer (made on @a)
// by a fill on @b: the loop leaves the buffer on @a when its condition stops
// it before the after region runs, on @b otherwise. The walk placed the
// result on @b only and said 16 bytes on @a for @flat (32 for @nested),
// where ferry-run measures 32 (48) with no iteration. Now the result counts
// on both devices after the loop (an upper bound, said in a remark) and is
// freed on each, in @nested too, whose scf.for walks the while again from
// @a each time: each device peaks at the walk's figure for one trip count
// (@a with none, @b with some), and nothing is live at exit.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="peak live bytes unknown"
// WALK: remark: peak live bytes per device are an upper bound after this loop: it may run no iteration (its condition may stop it before the after region runs)
// WALK: remark: peak live bytes: 32 (inputs 0, allocated 64)
// WALK: remark: peak live bytes on @a: 32 (inputs 0, allocated 32)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 32)
// WALK: remark: peak live bytes per device are an upper bound after this loop
// WALK: remark: peak live bytes: 48 (inputs 0, allocated 144)
// WALK: remark: peak live bytes on @a: 48 (inputs 0, allocated 80)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 64)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=flat --device=a=local-sync --device=b=local-task --input=f64=1.5 --input=i16=0 --stats=%t.f0.json | FileCheck %s --check-prefix=FLAT
// RUN: ferry-run %t.fvm --function=flat --device=a=local-task --device=b=local-sync --input=f64=1.5 --input=i16=3 --stats=%t.f3.json | FileCheck %s --check-prefix=FLAT
// RUN: %python %S/../check_stats.py %t.f0.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.f0.json --device=b live_bytes_at_exit=0 peak_bytes=0
// RUN: %python %S/../check_stats.py %t.f3.json --device=a live_bytes_at_exit=0 peak_bytes=16
// RUN: %python %S/../check_stats.py %t.f3.json --device=b live_bytes_at_exit=0 peak_bytes=16
// RUN: ferry-run %t.fvm --function=nested --device=a=local-sync --device=b=local-task --input=f64=1.5 --input=i16=0 --stats=%t.n0.json | FileCheck %s --check-prefix=NESTED
// RUN: ferry-run %t.fvm --function=nested --device=a=local-task --device=b=local-sync --input=f64=1.5 --input=i16=3 --stats=%t.n3.json | FileCheck %s --check-prefix=NESTED
// RUN: %python %S/../check_stats.py %t.n0.json --device=a live_bytes_at_exit=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.n0.json --device=b live_bytes_at_exit=0 peak_bytes=0
// RUN: %python %S/../check_stats.py %t.n3.json --device=a live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/../check_stats.py %t.n3.json --device=b live_bytes_at_exit=0 peak_bytes=32
// FLAT: 2xf64=[3 3]
// FLAT-NEXT: i16=
// NESTED: 2xf64=[7.5 7.5]

module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @flat(%v: f64, %n: i16) -> (tensor<2xf64>, i16) attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c0 = arith.constant 0 : i16
    %c1 = arith.constant 1 : i16
    %e0 = tensor.empty() : tensor<2xf64>
    %t0 = linalg.fill ins(%v : f64) outs(%e0 : tensor<2xf64>) -> tensor<2xf64>
    %r:2 = scf.while (%acc = %t0, %k = %c0) : (tensor<2xf64>, i16) -> (tensor<2xf64>, i16) {
      %go = arith.cmpi slt, %k, %n : i16
      scf.condition(%go) %acc, %k : tensor<2xf64>, i16
    } do {
    ^bb0(%acc2: tensor<2xf64>, %k2: i16):
      %e2 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<2xf64>
      %t2 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f64) outs(%e2 : tensor<2xf64>) -> tensor<2xf64>
      %k3 = arith.addi %k2, %c1 : i16
      scf.yield %t2, %k3 : tensor<2xf64>, i16
    }
    %e3 = tensor.empty() : tensor<2xf64>
    %t3 = linalg.fill ins(%v : f64) outs(%e3 : tensor<2xf64>) -> tensor<2xf64>
    %u = arith.addf %r#0, %t3 : tensor<2xf64>
    return %u, %r#1 : tensor<2xf64>, i16
  }
  func.func @nested(%v: f64, %n: i16) -> tensor<2xf64> attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %z = arith.constant 0 : i16
    %one = arith.constant 1 : i16
    %e0 = tensor.empty() : tensor<2xf64>
    %t0 = linalg.fill ins(%v : f64) outs(%e0 : tensor<2xf64>) -> tensor<2xf64>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %t0) -> (tensor<2xf64>) {
      %e1 = tensor.empty() : tensor<2xf64>
      %t1 = linalg.fill ins(%v : f64) outs(%e1 : tensor<2xf64>) -> tensor<2xf64>
      %r2:2 = scf.while (%w = %t1, %k = %z) : (tensor<2xf64>, i16) -> (tensor<2xf64>, i16) {
        %go = arith.cmpi slt, %k, %n : i16
        scf.condition(%go) %w, %k : tensor<2xf64>, i16
      } do {
      ^bb0(%w2: tensor<2xf64>, %k2: i16):
        %e2 = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<2xf64>
        %t2 = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%v : f64) outs(%e2 : tensor<2xf64>) -> tensor<2xf64>
        %k3 = arith.addi %k2, %one : i16
        scf.yield %t2, %k3 : tensor<2xf64>, i16
      }
      %e3 = tensor.empty() : tensor<2xf64>
      %t3 = linalg.fill ins(%v : f64) outs(%e3 : tensor<2xf64>) -> tensor<2xf64>
      %u = arith.addf %r2#0, %t3 : tensor<2xf64>
      %s = arith.addf %u, %acc : tensor<2xf64>
      scf.yield %s : tensor<2xf64>
    }
    return %r : tensor<2xf64>
  }
}
