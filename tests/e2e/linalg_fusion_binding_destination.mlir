// A reduction whose destination is a fill read again afterwards (so not
// made inside the dispatch) with an elementwise consumer: the consumer is
// not written over the reduction's result in the same dispatch. Before,
// workgroup tile-and-fuse kept the reduction whole beside its tiles and
// the compile failed ("'memref.copy' op dispatch result could not be
// written in place into its binding"; random seeds 1101, 5100).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x2xf32=1,2,3,4 --input=index=2 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x2xf32=1,2,3,4 --input=index=2 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=32
// The fill's size is the scalar input %n: input-shapes gives its value
// after %a's shape, and the walk's peak is the run's.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x2,2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @main
// CHECK: 2xf32=[7 9]
// CHECK-NEXT: 2x1xf32=[3][3]
func.func @main(%a: tensor<?x?xf32>, %n: index) -> (tensor<?xf32>, tensor<?x1xf32>) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %c = arith.constant 3.0 : f32
  %t = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<?x?xf32>) outs(%t : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %r = math.absf %g : tensor<?xf32>
  %x = tensor.expand_shape %t [[0, 1]] output_shape [%n, 1] : tensor<?xf32> into tensor<?x1xf32>
  return %r, %x : tensor<?xf32>, tensor<?x1xf32>
}
