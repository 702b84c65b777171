// The peak of simultaneously live bytes, worked out by hand, found by the
// compiler's liveness walk (stream-estimate-peak-memory) and measured by the
// device allocator must agree.
//
// By hand, for 4xf32 tensors (16 bytes each):
//   inputs a, b                        live 32
//   t0 = a * b      new buffer         live 48
//   t1 = a + b      new buffer         live 64   <- peak (t0 still needed)
//   t2 = t0 * t1    written into t0;   t1 dies   live 48
//   t3 = t2 + a     written into t2            live 48, returned
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 64 (inputs 32, allocated 32)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xf32=1,2,3,4 --input=4xf32=2,2,2,2 --stats=%t.json | FileCheck %s
// CHECK: 4xf32=[7 18 33 52]
// RUN: %python %S/check_stats.py %t.json peak_bytes=64 allocations=4 deallocations=4 live_bytes_at_exit=0 bytes_allocated=64
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %t0 = arith.mulf %a, %b : tensor<4xf32>
  %t1 = arith.addf %a, %b : tensor<4xf32>
  %t2 = arith.mulf %t0, %t1 : tensor<4xf32>
  %t3 = arith.addf %t2, %a : tensor<4xf32>
  return %t3 : tensor<4xf32>
}
