// A buffer made two calls down on the default device (@a) and used on @b,
// with the links left to run time (random seed 7725, reduced): @made
// returns a constant, @passes returns it as it came, and @on_b, placed on
// @b, reads it in a dispatch. Only @made's own callers counted as users of
// what it returns, not theirs, so the buffer was allocated for @a alone
// (no SharingExport) and importing it into a discrete @b failed ("missing
// buffer usage bit SharingExport"). Every binding of the two devices runs
// it.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --device=a=local-sync --device=b=local-sync --stats=%t.ss.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.ss.json live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --device=a=local-task --device=b=local-discrete --stats=%t.td.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.td.json live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --device=a=local-discrete --device=b=local-sync --stats=%t.ds.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.ds.json live_bytes_at_exit=0
// RUN: ferry-run %t.fvm --device=a=local-discrete --device=b=local-discrete --stats=%t.dd.json | FileCheck %s
// RUN: %python %S/../check_stats.py %t.dd.json live_bytes_at_exit=0
// 7 + 1 = 8
// CHECK: {{^}}3xi64=[8 8 8]{{$}}
module attributes {stream.topology = #hal.device.topology<links = [(@a -> @b = {transparent_access = #hal.runtime, unified_memory = #hal.runtime}), (@b -> @a = {transparent_access = #hal.runtime, unified_memory = #hal.runtime})]>} {
  hal.device.global @a = #hal.device.target<"local", {}>
  hal.device.global @b = #hal.device.target<"local", {}>
  func.func private @made() -> tensor<3xi64> {
    %c = arith.constant dense<7> : tensor<3xi64>
    return %c : tensor<3xi64>
  }
  func.func private @passes() -> tensor<3xi64> {
    %t = call @made() : () -> tensor<3xi64>
    return %t : tensor<3xi64>
  }
  func.func private @on_b() -> tensor<3xi64> attributes {stream.affinity = #hal.device.affinity<@b>} {
    %t = call @passes() : () -> tensor<3xi64>
    %one = arith.constant dense<1> : tensor<3xi64>
    %sum = arith.addi %t, %one : tensor<3xi64>
    return %sum : tensor<3xi64>
  }
  func.func @main() -> tensor<3xi64> {
    %r = call @on_b() : () -> tensor<3xi64>
    return %r : tensor<3xi64>
  }
}
