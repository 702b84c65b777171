// ferry-run --trace: the seed example (seed_example.mlir) and a two-device
// program write Chrome trace event JSON that check_trace.py validates: valid
// JSON, a "vm" process and one per device with its queue track, the queue
// events by name, one import call (and one completion span) per external
// call, and a live_bytes counter per device that returns to 0.
//
// Seed example: three queue allocas (x*x and the two empties), two frees
// (x*x after Double, Double's output after Triple), two mul dispatches (native
// executables; the last writes its dying operand), no
// copies or fills, each external function called once. Same on local-task.
// RUN: ferry-compile %S/seed_example.mlir -o %t.fvm
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=3x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14 --trace=%t.sync.json --stats=%t.sync.stats.json | FileCheck %s
// RUN: %python %S/check_trace.py %t.sync.json --devices=__device_0 alloca=3 dealloca=2 dispatch=2 copy=0 fill=0 call:Double.function=1 call:Triple.function=1
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --device=__device_0=local-task --input=3x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14 --trace=%t.task.json --stats=%t.task.stats.json | FileCheck %s
// RUN: %python %S/check_trace.py %t.task.json --devices=__device_0 alloca=3 dealloca=2 dispatch=2 copy=0 fill=0 call:Double.function=1 call:Triple.function=1
// RUN: %python -c "import json; ev = json.load(open('%t.task.json'))['traceEvents']; assert any(e['name'] == 'process_name' and e['args']['name'] == '__device_0 (local-task)' for e in ev)"
// CHECK: 3x5xi32=[0 36 576 2916 9216][22500 46656 86436 147456 236196][360000 527076 746496 1028196 1382976]
// Tracing changes no memory: the peak is the liveness walk's on both
// drivers, and nothing is live at exit.
// RUN: ferry-compile %S/seed_example.mlir --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=3x5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 180 (inputs 60, allocated 180)
// RUN: %python %S/check_stats.py %t.sync.stats.json peak_bytes=180 live_bytes_at_exit=0
// RUN: %python %S/check_stats.py %t.task.stats.json peak_bytes=180 live_bytes_at_exit=0
//
// A failing external function: the run fails, the trace is still written and
// marks the failed completion.
// RUN: not ferry-run %t.fvm --module=%plugins/test_plugin_failing.so --input=1x1xi32=7 --trace=%t.fail.json 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: external function 'Double.function': simulated device fault
// RUN: %python -c "import json; ev = json.load(open('%t.fail.json'))['traceEvents']; assert [e['name'] for e in ev if e['ph'] == 'e' and e['args'].get('failed') == 1] == ['Double.function'], ev"
//
// Two devices, one per track: the sum on @a, the product on @b (local-task).
// RUN: ferry-compile %S/multi_device/two_local_devices.mlir -o %t.two.fvm
// RUN: ferry-run %t.two.fvm --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-task --trace=%t.two.json --stats=%t.two.stats.json | FileCheck %s --check-prefix=TWO
// TWO: 4xi32=[110 440 990 1760]
// The per-device peaks are the walk's (multi_device/two_local_devices.mlir):
// 48 on @a, 0 on @b.
// RUN: ferry-compile %S/multi_device/two_local_devices.mlir --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO-WALK
// TWO-WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// TWO-WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
// RUN: %python %S/check_stats.py %t.two.stats.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=0 live_bytes_at_exit=0
// RUN: %python %S/check_trace.py %t.two.json --devices=a,b alloca=1 dispatch=2 copy=0
// RUN: %python -c "import json; ev = json.load(open('%t.two.json'))['traceEvents']; pids = {e['args']['name']: e['pid'] for e in ev if e['name'] == 'process_name'}; assert sorted({e['pid'] for e in ev if e.get('cat') == 'queue' and e['name'] == 'dispatch'}) == sorted([pids['a (local-sync)'], pids['b (local-task)']]), pids"
//
// --help explains the flag; an empty path is refused.
// RUN: ferry-run --help | FileCheck %s --check-prefix=HELP
// HELP: --trace=PATH{{.*}}Chrome
// HELP-NEXT: trace event JSON
// RUN: not ferry-run %t.fvm --trace= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: ferry-run: error: --trace needs a path
module {
}
