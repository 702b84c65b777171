// The module's executables compile into one shared object, the executable
// table's one entry, with an entry per dispatch function; each dispatch is
// opcode 0x39 naming that executable and entry. A strided slice's gather
// is an entry of kind copy (the runtime counts it as a copy).
// RUN: ferry-compile %s -o %t.fvm --target-cpu=x86-64
// RUN: ferry-dump %t.fvm | FileCheck %s

// CHECK: module: format version 8
// CHECK: hal.device.queue.dispatch.entry {{.*}} executable=@dispatches entry=0 workgroups_x={{.*}} push_constant=[] binding=[{{.*}}, {{.*}}, {{.*}}] binding_offset=[{{.*}}] binding_length=[{{.*}}]
// CHECK: hal.device.queue.dispatch.entry {{.*}} executable=@dispatches entry=1 {{.*}} push_constant=[i{{[0-9]+}}, i{{[0-9]+}}]
// CHECK: executables (1):
// CHECK-NEXT: [0] @dispatches format=elf-x86_64 cpu_features="{{.*}}sse2{{.*}}"
// CHECK-NEXT: entry [0] @main_dispatch_0 push_constants=0 bindings=(read, read, read_write)
// CHECK-NEXT: entry [1] @main_dispatch_1 push_constants=2 bindings=(read, write)
// CHECK-NEXT: entry [2] @main_dispatch_2 kind=copy push_constants=0 bindings=(read, write)
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>, %d: tensor<?xf32>) -> (tensor<4x4xf32>, tensor<?xf32>, tensor<2x4xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %d, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %m = linalg.map { math.exp } ins(%d : tensor<?xf32>) outs(%e : tensor<?xf32>)
  %s = tensor.extract_slice %a[0, 0] [2, 4] [2, 2] : tensor<4x8xf32> to tensor<2x4xf32>
  return %r, %m, %s : tensor<4x4xf32>, tensor<?xf32>, tensor<2x4xf32>
}
