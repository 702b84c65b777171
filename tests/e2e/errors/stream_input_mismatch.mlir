// Stream ops written in the input that the conversion's rewritten
// declaration no longer matches: an error naming the call, not a crash in
// a later pass, with or without verification after every pass.
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not ferry-compile %s -o %t.fvm --verify-each=false 2>&1 | FileCheck %s
// RUN: not ferry-compile %s -o %t.fvm --verify-each 2>&1 | FileCheck %s
// CHECK: error: 'stream.cmd.call' op passes 2 argument dimensions, but the arguments of 'ext' have 0 dynamic dimensions
// CHECK-NOT: Stack dump
func.func private @ext(tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<4xf32>) attributes {stream.tied_operands = array<i64: 1, -1>}
func.func @call(%d: index, %s: index) -> i1 {
  %a, %at = stream.resource.alloca uninitialized indeterminate : !stream.resource<transient>{%s} => !stream.timepoint
  %b, %bt = stream.resource.alloca uninitialized : !stream.resource<transient>{%s} => !stream.timepoint
  %r:2, %t = stream.cmd.call @ext(%a, %b) dims(%d, %d) : (!stream.resource<transient>{%s}, !stream.resource<transient>{%s}) -> (%b{%s}, !stream.resource<transient>{%s}) => !stream.timepoint
  %term = stream.resource.is_terminal %r#1 : !stream.resource<transient>{%s}
  return %term : i1
}
