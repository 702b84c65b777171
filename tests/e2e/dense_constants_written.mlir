// A constant an external function writes in place (the tied output of
// Double.function) is copied first, exactly once; the module's copy stays
// as it was, so the later read of %c sees [[1 2][3 4]]. Two functions that
// use the same constant share one entry of the constant table.
// RUN: ferry-compile %s --module=%compile_plugins/custom_module.so -o %t.fvm
// RUN: ferry-dump %t.fvm | FileCheck %s --check-prefix=DUMP
// DUMP: constants (1):
// DUMP-NEXT: [0] 16 bytes
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// CHECK: 2x2xi32=[3 6][9 12]
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 constant_bytes=16 copies=1 allocations=1 peak_bytes=16
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 constant_bytes=16 copies=1 allocations=1 peak_bytes=16
// RUN: ferry-compile %s --module=%compile_plugins/custom_module.so --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 16 (inputs 0, allocated 16)
// WALK-NEXT: func.func @main
// WALK: remark: peak live bytes: 16 (inputs 0, allocated 16)
// WALK-NEXT: func.func @again
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=again --module=%plugins/custom_module.so | FileCheck %s --check-prefix=AGAIN
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=16
// AGAIN: 2x2xi32=[2 4][6 8]
func.func private @Double.function(tensor<2x2xi32>, tensor<2x2xi32>) -> (tensor<2x2xi32> {iree.abi.tied = 1 : index}) attributes {
  iree.abi.model = "coarse-fences",
  nosideeffects
}

func.func @main() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %p = call @Double.function(%c, %c) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %s = arith.addi %p, %c : tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}

func.func @again() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %s = arith.addi %c, %c : tensor<2x2xi32>
  return %s : tensor<2x2xi32>
}
