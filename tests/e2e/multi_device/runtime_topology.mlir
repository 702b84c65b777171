// One compiled program whose shared allocation is resolved at run time: the
// link capabilities are #hal.runtime, so the module initializer asks the
// devices (hal.device.query, memoized) and @bits returns the memory type and
// usage every @a/@b allocation then gets. Run on two local devices, the link
// is transparent (HostVisible|DeviceLocal = 17, Transfer|DispatchStorage|
// Mapping|MappingPersistent = 720947); with @b on the discrete testing
// device it is not, and the bits switch to export (DeviceLocal = 16,
// Transfer|DispatchStorage|SharingExport = 307; the importing side's
// hal.device.import_buffer adds SharingImport). @main runs
// on @a alone and is right under both bindings.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --function=bits --stats=%t.bits.json | FileCheck %s --check-prefix=LOCAL
// RUN: ferry-run %t.fvm --function=bits --device=b=local-discrete --stats=%t.bits.discrete.json | FileCheck %s --check-prefix=DISCRETE
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.json | FileCheck %s
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --device=b=local-discrete --stats=%t.discrete.json | FileCheck %s
// Memory per device is the liveness walk's under both bindings: @main's
// inputs and result on @a, nothing on @b; @bits allocates nothing.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
// WALK: remark: peak live bytes: 0 (inputs 0, allocated 0)
// WALK: remark: peak live bytes on @a: 0 (inputs 0, allocated 0)
// WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
// RUN: %python %S/../check_stats.py %t.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=0 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.discrete.json --device=a peak_bytes=48 live_bytes_at_exit=0 --device=b peak_bytes=0 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.bits.json peak_bytes=0 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.bits.discrete.json peak_bytes=0 live_bytes_at_exit=0
// Whole lines, so that 17 cannot match 170 or 117.
// LOCAL: {{^}}i32=17{{$}}
// LOCAL-NEXT: {{^}}i32=720947{{$}}
// DISCRETE: {{^}}i32=16{{$}}
// DISCRETE-NEXT: {{^}}i32=307{{$}}
// CHECK: {{^}}4xi32=[110 440 990 1760]{{$}}
module attributes {stream.topology = #hal.device.topology<links = [
    (@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}),
    (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = arith.muli %0, %y : tensor<4xi32>
    return %1 : tensor<4xi32>
  }
  func.func @bits() -> (i32, i32) {
    %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties
        for(#hal.device.optimal<[#hal.device.affinity<@a>, #hal.device.affinity<@b>]>)
        lifetime(transient) : i32, i32
    return %memory_types, %buffer_usage : i32, i32
  }
}
