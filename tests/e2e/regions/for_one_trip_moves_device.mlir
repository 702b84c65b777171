// Two devices; an scf.for whose trip count the walk evaluates to 1 (a
// scalar input) starts from the host's input, on the first device @a, and
// yields a buffer made on @b (random seed 7025, reduced). The iteration
// moves the carried buffer to another device, so the walk went on to a
// second iteration (which frees what the first left) although none runs,
// and counted the first iteration's result live beside the second's
// temporaries: 48 bytes on @b where the run peaks at 40. One iteration
// repeats nothing, wherever it leaves the carried buffer.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1,9 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK --implicit-check-not="upper bound"
// WALK: remark: peak live bytes: 48 (inputs 8, allocated 52)
// WALK: remark: peak live bytes on @a: 8 (inputs 8, allocated 0)
// WALK: remark: peak live bytes on @b: 40 (inputs 0, allocated 52)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-task --stats=%t.json --input=1xf64=-2.25 --input=i16=9 | FileCheck %s --check-prefix=OUT --match-full-lines
// RUN: %python %S/../check_stats.py %t.json --device=b live_bytes_at_exit=0 peak_bytes=40 bytes_allocated=52
// RUN: %python %S/../check_stats.py %t.json --device=a live_bytes_at_exit=0 peak_bytes=8
// OUT: 1xf32=[0]
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%arg0: tensor<1xf64>, %n: i16) -> (tensor<1xf32>) attributes {stream.affinity = #hal.device.affinity<@b>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : i16
    %masked = arith.andi %n, %c3 : i16
    %trips = arith.index_cast %masked : i16 to index
    %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %arg0) -> (tensor<1xf64>) {
      %zero = arith.constant dense<0.0> : tensor<1xf64>
      %row = arith.constant dense<0.0> : tensor<1x2xf64>
      %init = arith.constant dense<0.0> : tensor<2x1xf64>
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%zero, %acc, %row : tensor<1xf64>, tensor<1xf64>, tensor<1x2xf64>) outs(%init : tensor<2x1xf64>) {
      ^bb0(%a: f64, %b: f64, %c: f64, %out: f64):
        %t = arith.truncf %out : f64 to f32
        %e = arith.extf %t : f32 to f64
        linalg.yield %e : f64
      } -> tensor<2x1xf64>
      %next = arith.constant dense<0.0> : tensor<1xf64>
      scf.yield %next : tensor<1xf64>
    }
    %out = arith.constant dense<0.0> : tensor<1xf32>
    return %out : tensor<1xf32>
  }
}
