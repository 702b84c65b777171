// tensor.empty, linalg.fill and splat constants placed on @b stay there
// through import and allocation scheduling: @b allocates and fills both
// buffers, @a (the function's device) runs the add and the mul (one fused
// dispatch).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --stats=%t.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.json --device=b allocations=2 fills=2 dispatches=0 peak_bytes=32 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.json --device=a fills=0 dispatches=1 peak_bytes=16 live_bytes_at_exit=0
// The walk per device: the input on @a; the filled buffer (which the
// dispatch then writes in place) and the splat on @b.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
// WALK: remark: peak live bytes on @a: 16 (inputs 16, allocated 0)
// WALK: remark: peak live bytes on @b: 32 (inputs 0, allocated 32)
// CHECK: 4xi32=[40 50 60 70]
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %c3 = arith.constant 3 : i32
    %e = tensor.empty() {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    %f = linalg.fill {stream.affinity = #hal.device.affinity<@b>} ins(%c3 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    %s = arith.constant {stream.affinity = #hal.device.affinity<@b>} dense<10> : tensor<4xi32>
    %0 = arith.addi %x, %f : tensor<4xi32>
    %1 = arith.muli %0, %s : tensor<4xi32>
    return %1 : tensor<4xi32>
  }
}
