// Loops that may run no iteration: a loop's result read inside a second
// loop is freed after both, waiting for the value to exist and for
// everything the first loop did; a loop's done timepoint, when it runs no
// iteration, is its initial one, which covers nothing. Before, the free
// waited for the second loop's done timepoint alone, and with no
// iteration ran before the fill that made the value: "queue fill on device
// 'a': was already deallocated" (random two-device program seed 1096).
// RUN: ferry-compile %s --compile-to=stream-cmd | FileCheck %s --check-prefix=IR
// IR: %[[L:.+]]:3 = scf.for
// IR: scf.for
// IR: %[[J:.+]] = stream.timepoint.join max({{.*}}%[[L]]#1{{.*}}%[[L]]#2{{.*}})
// IR-NEXT: stream.resource.dealloca {{.*}}await(%[[J]]) %[[L]]#0
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=index=0 --input=index=0 --device=a=local-task --device=b=local-sync --stats=%t.0.json | FileCheck %s --check-prefix=NONE
// RUN: %python %S/../check_stats.py %t.0.json --device=a live_bytes_at_exit=0 peak_bytes=32 --device=b live_bytes_at_exit=0 peak_bytes=16
// RUN: ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=index=1 --input=index=2 --device=a=local-task --device=b=local-task --stats=%t.1.json | FileCheck %s --check-prefix=SOME
// RUN: %python %S/../check_stats.py %t.1.json --device=a live_bytes_at_exit=0 peak_bytes=32 --device=b live_bytes_at_exit=0 peak_bytes=16
// Each device's peak equals its liveness walk, for no iteration and some.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes on @a: 32 (inputs 16, allocated 16)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// NONE: 4xi32=[1 1 1 1]
// SOME: 4xi32=[19 19 19 19]
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %n: index, %m: index) -> tensor<4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %three = arith.constant 3 : i32
    %one = arith.constant 1 : i32
    %e = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    %f = linalg.fill ins(%three : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f) -> tensor<4xi32> {
      %s = arith.muli %acc, %acc : tensor<4xi32>
      scf.yield %s : tensor<4xi32>
    }
    %e2 = tensor.empty() : tensor<4xi32>
    %g = linalg.fill ins(%one : i32) outs(%e2 : tensor<4xi32>) -> tensor<4xi32>
    %r = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %g) -> tensor<4xi32> {
      %t = arith.addi %acc, %l : tensor<4xi32>
      scf.yield %t : tensor<4xi32>
    }
    return %r : tensor<4xi32>
  }
}
