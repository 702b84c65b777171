// An op the writer has no instruction for is an error naming the op at its
// location, and no output file is left behind.
// RUN: rm -f %t.fvm
// RUN: not ferry-compile %s -o %t.fvm 2>&1 | FileCheck %s
// RUN: not test -e %t.fvm

// CHECK: unserializable_op.mlir:[[@LINE+2]]:17: error: 'arith.mului_extended' cannot be serialized to a Ferry bytecode module; it should have been lowered to the hal dialect
func.func @wide_product(%a: i64, %b: i64) -> i64 {
  %low, %high = arith.mului_extended %a, %b : i64
  return %high : i64
}

// Errors in later functions are reported too.
// CHECK: unserializable_op.mlir:[[@LINE+1]]:1: error: function 'float_arg': argument 0 has type 'f128', which a Ferry bytecode module cannot pass; only index, integers of up to 64 bits, f16, bf16, f32, f64 and !hal types can
func.func @float_arg(%x: f128) {
  return
}
