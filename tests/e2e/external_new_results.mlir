// External functions with new results (tied to no operand): the runtime
// allocates each for the callee (plugin_api.h result_allocate) on the
// calling device with the memory types and usage the compiler resolved for
// it; the program owns it and frees it at its last use. Repeat.function
// (samples/custom_module) returns its 1-D input twice over, a length it
// decides at run time for a dynamic result type.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-compile %s --module=%compile_plugins/custom_module.so -o %t.checked.fvm
// Static shape, the new result read by Double.function and a kernel:
// RUN: ferry-run %t.fvm --function=static_used --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s --check-prefix=STATIC
// RUN: ferry-run %t.fvm --function=static_used --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s --check-prefix=STATIC
// RUN: ferry-run %t.checked.fvm --function=static_used --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --device=__device_0=local-discrete --stats=%t.discrete.json | FileCheck %s --check-prefix=STATIC
// STATIC: 8xi32=[3 6 9 12 3 6 9 12]
// The input (16), the new result (32) and Double's output (32); the sum is
// written over Double's output, the new result is freed after the add.
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 peak_bytes=80
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 peak_bytes=80
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: peak live bytes: 80 (inputs 16, allocated 64)
// WALK-NEXT: func.func @static_used
// WALK: peak live bytes: 48 (inputs 16, allocated 32)
// WALK-NEXT: func.func @static_returned
// On local-discrete the result lives in device memory (a host-visible
// stand-in for the callee is staged and copied back): nothing leaks.
// RUN: %python %S/check_stats.py %t.discrete.json live_bytes_at_exit=0 peak_bytes=80
// Returned straight to the host:
// RUN: ferry-run %t.fvm --function=static_returned --module=%plugins/custom_module.so --input=4xi32=5,6,7,8 --stats=%t.ret.json | FileCheck %s --check-prefix=RETURNED
// RUN: ferry-run %t.fvm --function=static_returned --module=%plugins/custom_module.so --input=4xi32=5,6,7,8 --device=__device_0=local-discrete --stats=%t.ret.discrete.json | FileCheck %s --check-prefix=RETURNED
// RETURNED: 8xi32=[5 6 7 8 5 6 7 8]
// RUN: %python %S/check_stats.py %t.ret.json live_bytes_at_exit=0 peak_bytes=48
// On local-discrete the input is also staged in host-visible memory for
// the callee while the result exists: 16 bytes above the walk's 48.
// RUN: %python %S/check_stats.py %t.ret.discrete.json live_bytes_at_exit=0 peak_bytes=64
//
// Dynamic shape: the function decides the length (twice its input's); the
// dims come back with the result's view and size what follows. The result
// is freed after its last use (the add); nothing leaks, on every driver.
// RUN: ferry-compile %S/Inputs/external_new_results_dynamic.mlir --module=%compile_plugins/custom_module.so -o %t.dyn.fvm
// RUN: ferry-run %t.dyn.fvm --function=dynamic_used --module=%plugins/custom_module.so --input=3xi32=1,2,3 --device=__device_0=local-sync --stats=%t.dsync.json | FileCheck %s --check-prefix=DYNAMIC
// RUN: ferry-run %t.dyn.fvm --function=dynamic_used --module=%plugins/custom_module.so --input=3xi32=1,2,3 --device=__device_0=local-task --stats=%t.dtask.json | FileCheck %s --check-prefix=DYNAMIC
// RUN: ferry-run %t.dyn.fvm --function=dynamic_used --module=%plugins/custom_module.so --input=3xi32=1,2,3 --device=__device_0=local-discrete --stats=%t.ddiscrete.json | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: 6xi32=[3 6 9 3 6 9]
// The input (12), the result (24) and Double's output (24), which the add
// overwrites.
// RUN: %python %S/check_stats.py %t.dsync.json live_bytes_at_exit=0 peak_bytes=60
// RUN: %python %S/check_stats.py %t.dtask.json live_bytes_at_exit=0 peak_bytes=60
// RUN: %python %S/check_stats.py %t.ddiscrete.json live_bytes_at_exit=0 peak_bytes=60
// RUN: ferry-run %t.dyn.fvm --function=dynamic_returned --module=%plugins/custom_module.so --input=5xi32=1,-2,3,-4,5 --device=__device_0=local-task --stats=%t.dret.json | FileCheck %s --check-prefix=DRETURNED
// RUN: ferry-run %t.dyn.fvm --function=dynamic_returned --module=%plugins/custom_module.so --input=5xi32=1,-2,3,-4,5 --device=__device_0=local-discrete --stats=%t.dret.discrete.json | FileCheck %s --check-prefix=DRETURNED
// RUN: ferry-run %t.dyn.fvm --function=dynamic_returned --module=%plugins/custom_module.so --input=0xi32= --stats=%t.dret.empty.json | FileCheck %s --check-prefix=EMPTY
// DRETURNED: 10xi32=[1 -2 3 -4 5 1 -2 3 -4 5]
// EMPTY: 0xi32=[]
// RUN: %python %S/check_stats.py %t.dret.json live_bytes_at_exit=0 peak_bytes=60
// On local-discrete the staged input (20 bytes) adds to it.
// RUN: %python %S/check_stats.py %t.dret.discrete.json live_bytes_at_exit=0 peak_bytes=80
// RUN: %python %S/check_stats.py %t.dret.empty.json live_bytes_at_exit=0 peak_bytes=0
// The walk gives no figure for the dynamic functions: the result's length
// is what Repeat.function decides at run time, so it reports the import of
// that result unknown, whatever the input's shape.
// RUN: ferry-compile %S/Inputs/external_new_results_dynamic.mlir --module=%compile_plugins/custom_module.so --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=DWALK
// DWALK: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (give input-shapes for dynamic inputs)
// DWALK-NEXT: stream.tensor.import consume %{{.+}} message("result 0 of 'Repeat.function'")
// DWALK: remark: peak live bytes unknown: the size of 'stream.tensor.import' is not known statically (give input-shapes for dynamic inputs)
// DWALK-NEXT: stream.tensor.import consume %{{.+}} message("result 0 of 'Repeat.function'")

func.func private @Repeat.function(tensor<4xi32>) -> tensor<8xi32> attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func private @Double.function(tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
func.func @static_used(%x: tensor<4xi32>) -> tensor<8xi32> {
  %r = call @Repeat.function(%x) : (tensor<4xi32>) -> tensor<8xi32>
  %e = tensor.empty() : tensor<8xi32>
  %d = call @Double.function(%r, %e) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %s = arith.addi %d, %r : tensor<8xi32>
  return %s : tensor<8xi32>
}
func.func @static_returned(%x: tensor<4xi32>) -> tensor<8xi32> {
  %r = call @Repeat.function(%x) : (tensor<4xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}
