// A linalg.copy into a fresh tensor, alone in its dispatch: dispatch
// formation makes it an identity generic, which canonicalization erases,
// leaving a dispatch function that returns its input binding. The
// function's result names its destination (ferry.destination), so the
// kernel copies the input there (before: the result was read from the
// uninitialized destination, all zeros).
// RUN: ferry-compile %s --compile-to=stream-async | FileCheck %s --check-prefix=IR
// IR: func.func @main_dispatch_0(%{{.+}}: tensor<2x4xf32>, %{{.+}}: tensor<2x4xf32>) -> (tensor<2x4xf32> {ferry.destination = 1 : i64})
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=2x4xf32=1,2,3,4,5,6,7,8 --stats=%t.task.json | FileCheck %s --match-full-lines
// RUN: %python %S/check_stats.py %t.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=64
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 dispatches=1 peak_bytes=64
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 64 (inputs 32, allocated 32)
// WALK-NEXT: func.func @main
// CHECK: 2x4xf32=[1 2 3 4][5 6 7 8]
func.func @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %c = linalg.copy ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
