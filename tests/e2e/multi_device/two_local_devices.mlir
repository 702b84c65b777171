// Two local devices share the intermediate (the multiply on @b writes in
// place into the sum @a allocated): the default topology (local targets are
// unified and transparent) decides statically, each device runs its own
// dispatch and the per-device stats show where work and memory went.
// RUN: ferry-compile %s -o %t.fvm --hal-explain-memory-properties 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 --stats=%t.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.json --device=a allocations=3 deallocations=3 dispatches=1 peak_bytes=48 live_bytes_at_exit=0
// RUN: %python %S/../check_stats.py %t.json --device=b allocations=0 deallocations=0 dispatches=1 peak_bytes=0 live_bytes_at_exit=0
// Per device, the liveness walk agrees: inputs and the sum on @a, nothing on @b.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @a: 48 (inputs 32, allocated 16)
// WALK: remark: peak live bytes on @b: 0 (inputs 0, allocated 0)
// REMARK: remark: memory properties by rule 'transparent access'{{.*}}allocated on @a; "HostVisible|DeviceLocal" / "Transfer|DispatchStorage|Mapping|MappingPersistent"
// CHECK: 4xi32=[110 440 990 1760]
module {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32>
      attributes {stream.affinity = #hal.device.affinity<@a>} {
    %0 = arith.addi %x, %y : tensor<4xi32>
    %1 = arith.muli %0, %y {stream.affinity = #hal.device.affinity<@b>} : tensor<4xi32>
    return %1 : tensor<4xi32>
  }
}
