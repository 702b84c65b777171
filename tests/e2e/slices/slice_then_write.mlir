// A slice read after its source is written in place: the write (a fill of
// the source, its last use) comes before the slice's reader, so the slice
// cannot be a view; it is copied first (the one copy, 16 bytes) and reads
// the values from before the fill.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=8xf32=0,1,2,3,4,5,6,7 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=8xf32=0,1,2,3,4,5,6,7 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=1 bytes_copied=16 peak_bytes=96
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=1 bytes_copied=16 peak_bytes=96
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 96
// CHECK:      8xf32=[7 7 7 7 7 7 7 7]
// CHECK-NEXT: 4xf32=[6 8 10 12]
// CHECK-EMPTY:

#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %c1 = arith.constant 1.0 : f32
  %c7 = arith.constant 7.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %src = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %c1 : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %s = tensor.extract_slice %src[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %w = linalg.fill ins(%c7 : f32) outs(%src : tensor<8xf32>) -> tensor<8xf32>
  %te = tensor.empty() : tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%te : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %w, %t : tensor<8xf32>, tensor<4xf32>
}
