// An external function without `nosideeffects` may keep a reference to what
// it is given, so the program releases each buffer it passed and frees it
// only if it was the last owner (`stream.resource.release` +
// `dealloca if`). A reference is not an owner: the plugin ABI cannot add
// one, so the release is the last and the memory is back before the 2-byte
// result is allocated. The walk counts it so and agrees with the allocator:
//   %a, %b (4 bytes each)     live 8   <- peak
//   both freed after the call live 0
//   %r (2 bytes)              live 2
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 8 (inputs 0, allocated 10)
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --stats=%t.json | FileCheck %s
// CHECK: 1xi16=[7]
// RUN: %python %S/check_stats.py %t.json peak_bytes=8 live_bytes_at_exit=0
func.func private @Triple.function(tensor<1xi32>, tensor<1xi32>) -> (tensor<1xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences"}
func.func @main() -> tensor<1xi16> {
  %a = arith.constant dense<0> : tensor<1xi32>
  %b = arith.constant dense<0> : tensor<1xi32>
  %t = call @Triple.function(%a, %b) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %r = arith.constant dense<7> : tensor<1xi16>
  return %r : tensor<1xi16>
}
