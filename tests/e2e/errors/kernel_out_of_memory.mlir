// A kernel whose heap tile cannot be allocated: the workgroup frees the
// tiles it holds and returns FERRY_ENTRY_STATUS_OUT_OF_MEMORY, and ferry-run
// fails with an error naming the executable, the entry and "out of memory"
// (compiler/Codegen/GuardHeapTiles.h). exp(x) @ exp(w) with dynamic sizes
// has two heap tiles per workgroup (exp(x)'s, then exp(w)'s). The preloaded
// tests/tools/fail_kernel_malloc.c makes the N-th malloc of kernel code fail
// and prints at exit how many kernel buffers were not freed.
// Sanitizer runtimes replace malloc themselves: no preloading there.
// UNSUPPORTED: sanitizer
// RUN: ferry-compile %s -o %t.fvm
//
// Nothing fails: the right result, every kernel buffer freed.
// RUN: env LD_PRELOAD=%plugins/fail_kernel_malloc.so ferry-run %t.fvm --function=exp_matmul --input=2x3xf32=0,0,0,0,0,0 --input=3x2xf32=0,0,0,0,0,0 --device=__device_0=local-sync 2>&1 | FileCheck %s --check-prefix=OK
// OK: 2x2xf32=[3 3][3 3]
// OK: fail_kernel_malloc: 2 kernel mallocs, 0 failed, 0 not freed
//
// The first malloc fails (exp(x)'s tile, nothing held yet), then the second
// (exp(w)'s, exp(x)'s is freed): one line of error, no result, exit 1.
// RUN: env FERRY_FAIL_KERNEL_MALLOC=1 LD_PRELOAD=%plugins/fail_kernel_malloc.so not ferry-run %t.fvm --function=exp_matmul --input=2x3xf32=0,0,0,0,0,0 --input=3x2xf32=0,0,0,0,0,0 --device=__device_0=local-sync 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: ferry-run: error: {{.*}}queue dispatch of executable 'dispatches' entry 'exp_matmul_dispatch_0' on device '__device_0': workgroup (0, 0, 0) ran out of memory (the kernel could not allocate a buffer of its own){{$}}
// FIRST-NOT: 2x2xf32
// FIRST: fail_kernel_malloc: 1 kernel mallocs, 1 failed, 0 not freed
// RUN: env FERRY_FAIL_KERNEL_MALLOC=2 LD_PRELOAD=%plugins/fail_kernel_malloc.so not ferry-run %t.fvm --function=exp_matmul --input=2x3xf32=0,0,0,0,0,0 --input=3x2xf32=0,0,0,0,0,0 --device=__device_0=local-sync 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: ferry-run: error: {{.*}}workgroup (0, 0, 0) ran out of memory
// SECOND: fail_kernel_malloc: 2 kernel mallocs, 1 failed, 0 not freed
//
// On local-task's worker threads too, with the other workgroups of a
// larger dispatch running or skipped.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.zeros((1000, 3), np.float32)); np.save('%t.w.npy', np.zeros((3, 2), np.float32))"
// RUN: env FERRY_FAIL_KERNEL_MALLOC=4 LD_PRELOAD=%plugins/fail_kernel_malloc.so not ferry-run %t.fvm --function=exp_matmul --input=@%t.x.npy --input=@%t.w.npy --device=__device_0=local-task 2>&1 | FileCheck %s --check-prefix=TASK
// TASK: ferry-run: error: {{.*}}exp_matmul_dispatch_0{{.*}}ran out of memory
// TASK: fail_kernel_malloc: {{[0-9]+}} kernel mallocs, {{[1-9][0-9]*}} failed, 0 not freed
func.func @exp_matmul(%x: tensor<?x?xf32>, %w: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %ex = math.exp %x : tensor<?x?xf32>
  %ew = math.exp %w : tensor<?x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2xf32>) -> tensor<?x2xf32>
  %m = linalg.matmul ins(%ex, %ew : tensor<?x?xf32>, tensor<?x2xf32>) outs(%z : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %m : tensor<?x2xf32>
}
