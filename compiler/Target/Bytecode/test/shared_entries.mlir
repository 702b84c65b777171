// Dispatch functions identical but for their names (the same elementwise
// op at the same types, made once per use) share one entry of the
// executable. Each result is read twice, so nothing fuses: the first
// addition writes a fresh buffer (3 bindings); the next two, `x + x` over
// a dying x, write it in place (one read-write binding) and share one
// entry; the multiplication, in place too, has its own.
// RUN: ferry-compile %s -o %t.fvm --target-cpu=x86-64
// RUN: ferry-dump %t.fvm | FileCheck %s
// CHECK: hal.device.queue.dispatch.entry {{.*}} executable=@dispatches entry=0
// CHECK-COUNT-2: hal.device.queue.dispatch.entry {{.*}} executable=@dispatches entry=1
// CHECK: hal.device.queue.dispatch.entry {{.*}} executable=@dispatches entry=2
// CHECK: executables (1):
// CHECK: entry [0] @main_dispatch_0 push_constants=0 bindings=(read, read, write)
// CHECK-NEXT: entry [1] @main_dispatch_1 push_constants=0 bindings=(read_write)
// CHECK-NEXT: entry [2] @main_dispatch_3 push_constants=0 bindings=(read_write)
// CHECK-NOT: entry [3]
// RESULT: 8xf32=[16 64 144 256 400 576 784 1024]
// RUN: ferry-run %t.fvm --input=8xf32=1,1,1,1,1,1,1,1 --input=8xf32=0,1,2,3,4,5,6,7 | FileCheck %s --check-prefix=RESULT
// RUN: %python -c "import numpy as np; x = np.float32(1) + np.arange(8, dtype=np.float32); z = 4 * x; print('8xf32=[' + ' '.join('%g' % v for v in z * z) + ']')" | FileCheck %s --check-prefix=RESULT
// RUN: ferry-run %t.fvm --input=8xf32=1,1,1,1,1,1,1,1 --input=8xf32=0,1,2,3,4,5,6,7 --stats=%t.json > /dev/null
// RUN: %python %S/../../../../tests/e2e/check_stats.py %t.json dispatches=4 copies=0 live_bytes_at_exit=0
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %x = arith.addf %a, %b : tensor<8xf32>
  %y = arith.addf %x, %x : tensor<8xf32>
  %z = arith.addf %y, %y : tensor<8xf32>
  %w = arith.mulf %z, %z : tensor<8xf32>
  return %w : tensor<8xf32>
}
