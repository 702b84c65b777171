// Stream IR written in the input (ferry-compile takes it as it is): two
// calls of Double.function (samples/custom_module), each writing into a
// fresh buffer in place, where the second call reads the first call's
// result under its tied name and the program returns the second call's
// tied result. Reference counting follows a tied result as the buffer it
// was written into: the first buffer is freed after the second call (not
// after the first, which let the second buffer reuse its storage), and the
// second is returned, not freed (which made the result a view of a
// deallocated buffer).
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --stats=%t.sync.json | FileCheck %s --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --module=%plugins/custom_module.so --input=4xi32=1,2,3,4 --stats=%t.task.json | FileCheck %s --match-full-lines
// CHECK: 4xi32=[4 8 12 16]
// The input and the two buffers (three allocations), all live during the
// second call.
// RUN: %python %S/check_stats.py %t.sync.json allocations=3 live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: %python %S/check_stats.py %t.task.json allocations=3 live_bytes_at_exit=0 copies=0 peak_bytes=48
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 48 (inputs 16, allocated 32)
func.func private @Double.function(tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.model = "coarse-fences", nosideeffects, stream.tied_operands = array<i64: 1>}
func.func @main(%v: !hal.buffer_view) -> !hal.buffer_view {
  %s = stream.tensor.sizeof tensor<4xi32> : index
  %a = stream.tensor.import %v message("input 0") : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%s}
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %r, %rt = stream.cmd.call @Double.function(%a, %b) await(%bt) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> (%b{%s}) => !stream.timepoint
  %c, %ct = stream.resource.alloca uninitialized : !stream.resource<external>{%s} => !stream.timepoint
  %j = stream.timepoint.join max(%rt, %ct) => !stream.timepoint
  %r2, %t2 = stream.cmd.call @Double.function(%r, %c) await(%j) : (!stream.resource<external>{%s}, !stream.resource<external>{%s}) -> (%c{%s}) => !stream.timepoint
  %w = stream.timepoint.await %t2 => %r2 : (!stream.resource<external>{%s})
  %e = stream.tensor.export %w : tensor<4xi32> in !stream.resource<external>{%s} -> !hal.buffer_view
  return %e : !hal.buffer_view
}
