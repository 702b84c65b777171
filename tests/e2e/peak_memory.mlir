// The peak of simultaneously live bytes, worked out by hand, found by the
// compiler's liveness walk (stream-estimate-peak-memory) and measured by the
// device allocator must agree.
//
// By hand, for 4xf32 tensors (16 bytes each): the chain is one fused
// dispatch (each intermediate is read once), so no intermediate is stored:
//   inputs a, b                                   live 32
//   t3 = (a * b) * (a + b) + a    new buffer      live 48, returned
// (Before add/sub/mul were compiled dispatches, the intermediates were
// built-in kernels' buffers and the peak 64.)
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xf32=1,2,3,4 --input=4xf32=2,2,2,2 --stats=%t.json | FileCheck %s
// CHECK: 4xf32=[7 18 33 52]
// RUN: %python %S/check_stats.py %t.json peak_bytes=48 allocations=3 deallocations=3 live_bytes_at_exit=0 bytes_allocated=48
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %t0 = arith.mulf %a, %b : tensor<4xf32>
  %t1 = arith.addf %a, %b : tensor<4xf32>
  %t2 = arith.mulf %t0, %t1 : tensor<4xf32>
  %t3 = arith.addf %t2, %a : tensor<4xf32>
  return %t3 : tensor<4xf32>
}
