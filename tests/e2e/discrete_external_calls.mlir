// External functions map their buffer views through the host, so on the
// discrete testing device (memory the host cannot see) a view of a function
// argument handed straight to one used to fail ("not in host-visible memory,
// so a plugin cannot map it"), as the input, as the tied output, or after
// passing through a private function. The VM now stages such views: a
// host-visible copy for the call, copied back when the callee wrote it.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=arg_in --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --device=__device_0=local-discrete --stats=%t.in.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=via_private --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --device=__device_0=local-discrete --stats=%t.private.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=arg_out --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --input=2x2xi32=0,0,0,0 --device=__device_0=local-discrete --stats=%t.out.json | FileCheck %s
// CHECK: 2x2xi32=[2 4][6 8]
// Staging: the input goes to the device (ferry-run) and to a host-visible
// copy for the call (the VM): 2 copies, 16 bytes more than the walk's 32.
// RUN: %python %S/check_stats.py %t.in.json copies=2 live_bytes_at_exit=0 peak_bytes=48
// RUN: %python %S/check_stats.py %t.private.json copies=2 live_bytes_at_exit=0 peak_bytes=48
// The tied output staged too (copied there and back): 16 bytes more than
// the walk's 48.
// RUN: %python %S/check_stats.py %t.out.json live_bytes_at_exit=0 peak_bytes=64
// The same program on the CPU drivers: nothing is staged, the peak is the
// walk's.
// RUN: ferry-run %t.fvm --function=arg_in --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --device=__device_0=local-task --stats=%t.task.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.task.json copies=0 live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --function=via_private --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --device=__device_0=local-sync --stats=%t.sync.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.sync.json copies=0 live_bytes_at_exit=0 peak_bytes=32
// RUN: ferry-run %t.fvm --function=arg_out --module=%plugins/custom_module.so --input=2x2xi32=1,2,3,4 --input=2x2xi32=0,0,0,0 --device=__device_0=local-sync --stats=%t.out.sync.json | FileCheck %s
// RUN: %python %S/check_stats.py %t.out.sync.json live_bytes_at_exit=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=2x2,2x2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @arg_in
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK-NEXT: func.func @arg_out
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func private @inner
// WALK: remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @via_private

func.func private @Double.function(tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xi32> {iree.abi.tied = 1 : index}) attributes {iree.abi.model = "coarse-fences", nosideeffects}
// The argument straight to the external function (as its read input).
func.func @arg_in(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %d = call @Double.function(%x, %e) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %d : tensor<?x?xi32>
}
// The argument as the tied output.
func.func @arg_out(%x: tensor<?x?xi32>, %y: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %d = call @Double.function(%x, %y) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %d : tensor<?x?xi32>
}
// Through a private function first.
func.func private @inner(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xi32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %d = call @Double.function(%x, %e) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %d : tensor<?x?xi32>
}
func.func @via_private(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = call @inner(%x) : (tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
