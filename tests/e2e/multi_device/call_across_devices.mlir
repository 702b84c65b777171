// A buffer that crosses a call between functions of the module onto another
// device, with the link left to run time: @main computes on @a and hands the
// sum to @on_b, which squares it on @b and returns the square to @a. The
// allocation bits must allow that use (SharingExport where @b cannot reach
// @a's memory, and back); this failed on every discrete binding with
// "missing buffer usage bit SharingExport". Every binding of the two
// devices runs it.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-sync --device=b=local-sync --stats=%t.ss.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-sync --device=b=local-task --stats=%t.st.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-sync --device=b=local-discrete --stats=%t.sd.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-sync --stats=%t.ts.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-task --stats=%t.tt.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-task --device=b=local-discrete --stats=%t.td.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-discrete --device=b=local-sync --stats=%t.ds.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-discrete --device=b=local-task --stats=%t.dt.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=a=local-discrete --device=b=local-discrete --stats=%t.dd.json | FileCheck %s
// (1+10)^2 + 1 = 122, ...
// CHECK: {{^}}4xi32=[122 486 1092 1940]{{$}}
// Per device peaks are the walk's (a 48, b 16) where the devices reach each
// other's memory. Where they do not (a discrete binding), the runtime
// imports the buffer crossing the call into the other device as a second
// allocation (the documented local-discrete exception): @b holds a copy of
// the sum (+16), and @a a copy of the square, which may or may not overlap
// the sum's life depending on when @a's queue frees it (+0 or +16).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes on @a: 16 (inputs 16, allocated 0)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// The square @on_b returns is @b's allocation, counted there in @main too.
// WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @b: 16 (inputs 0, allocated 16)
// RUN: %python %S/../check_stats.py %t.ss.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.st.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.ts.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.tt.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=16 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.sd.json --device=a live_bytes_at_exit=0 --device=b peak_bytes=32 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.td.json --device=a live_bytes_at_exit=0 --device=b peak_bytes=32 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.ds.json --device=a live_bytes_at_exit=0 --device=b peak_bytes=32 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.dt.json --device=a live_bytes_at_exit=0 --device=b peak_bytes=32 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.dd.json --device=a live_bytes_at_exit=0 --device=b peak_bytes=32 live_bytes_at_exit=0
// RUN: %python -c "import json, sys; peaks = [json.load(open(p))['devices']['a']['peak_bytes'] for p in sys.argv[1:]]; assert all(p in (48, 64) for p in peaks), peaks" %t.sd.json %t.td.json %t.ds.json %t.dt.json %t.dd.json
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @on_b(%x: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@b>} {
    %0 = arith.muli %x, %x : tensor<4xi32>
    return %0 : tensor<4xi32>
  }
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = call @on_b(%0) : (tensor<4xi32>) -> tensor<4xi32>
    %2 = arith.addi %1, %x : tensor<4xi32>
    return %2 : tensor<4xi32>
  }
}
