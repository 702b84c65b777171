// A plugin that returns from its calls but never signals their fences
// (test_plugin_never_signals) would hang the run for ever; with --timeout
// the fence is failed once the time is up, and the run ends naming the
// external function whose fence the program was waiting for, on the
// inline driver and on the queue-thread one alike. (`timeout` only keeps a
// regression from hanging the test suite.)
// RUN: ferry-compile %samples/tied_external_calls.mlir -o %t.fvm
// RUN: not timeout 60 ferry-run %t.fvm --module=%plugins/test_plugin_never_signals.so --input=1x1xi32=7 --timeout=0.2 2>&1 | FileCheck %s
// RUN: not timeout 60 ferry-run %t.fvm --module=%plugins/test_plugin_never_signals.so --input=1x1xi32=7 --timeout=0.2 --device=__device_0=local-task 2>&1 | FileCheck %s
// CHECK: ferry-run: error: {{.*}}external function '{{Double|Triple}}.function' did not signal its fence within 0.2 s{{$}}
// A plugin that signals in time is unaffected (test_plugin_late: 200 ms).
// RUN: ferry-run %t.fvm --module=%plugins/test_plugin_late.so --input=1x1xi32=7 --timeout=30 --stats=%t.json | FileCheck %s --check-prefix=IN-TIME
// IN-TIME: 1x1xi32=[86436]
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 peak_bytes=12
// RUN: ferry-compile %samples/tied_external_calls.mlir --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=1x1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 12 (inputs 4, allocated 12)
