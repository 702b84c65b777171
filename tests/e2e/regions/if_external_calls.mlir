// An scf.if choosing between two tied external calls writing into the
// same fresh tensor: each branch writes it in place (no copy), the chosen
// result is returned, nothing is live at exit and peak_bytes equals the
// walk on both drivers.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --input=i1=1 --stats=%t.1.json | FileCheck %s --check-prefix=DOUBLE --match-full-lines
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --input=i1=0 --stats=%t.0.json | FileCheck %s --check-prefix=TRIPLE --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --input=i1=0 --stats=%t.task.json | FileCheck %s --check-prefix=TRIPLE --match-full-lines
// DOUBLE: 4xi32=[4 8 12 16]
// TRIPLE: 4xi32=[6 12 18 24]
// RUN: %python %S/../check_stats.py %t.1.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.0.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
func.func private @Double.function(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func private @Triple.function(tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func @main(%x: tensor<4xi32>, %c: i1) -> tensor<4xi32> {
  %y = arith.addi %x, %x : tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %r = scf.if %c -> tensor<4xi32> {
    %d = func.call @Double.function(%y, %e) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    scf.yield %d : tensor<4xi32>
  } else {
    %t = func.call @Triple.function(%y, %e) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    scf.yield %t : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
