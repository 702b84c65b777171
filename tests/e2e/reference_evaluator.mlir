// The random test's reference evaluator (tests/random/reference.py) computes
// what the hand-written tests expect of ferry-run, line for line: scalar
// integer widths, control flow and recursion, calls between functions, tied
// external calls (the seed example) and placed ops on two devices.
// RUN: %python %S/../random/reference.py %S/scalar_integer_widths.mlir | FileCheck %S/scalar_integer_widths.mlir --match-full-lines
// RUN: %python %S/../random/reference.py %S/control_flow_loop.mlir --input=4xi32=1,2,3,4 | FileCheck %S/control_flow_loop.mlir
// RUN: %python %S/../random/reference.py %S/internal_call.mlir --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 | FileCheck %S/internal_call.mlir
// RUN: %python %S/../random/reference.py %S/seed_example.mlir --input=3x5xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14 | FileCheck %S/seed_example.mlir --check-prefix=SMALL
// RUN: %python %S/../random/reference.py %S/multi_device/placed_fills.mlir --input=4xi32=1,2,3,4 | FileCheck %S/multi_device/placed_fills.mlir
// The linalg ops (issue 14): named ops and a map, reshapes.
// RUN: %python %S/../random/reference.py %S/linalg_named_ops.mlir --function=ops --input=2x3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12 --input=2x4x5xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40 --input=3x4xi32=1,2,3,4,5,6,7,8,9,10,11,12 --input=4xi32=1,-1,2,-2 | FileCheck %S/linalg_named_ops.mlir
// RUN: %python %S/../random/reference.py %S/tensor_reshape.mlir --function=static --input=2x3x4xi32=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23 | FileCheck %S/tensor_reshape.mlir
// RUN: %python %S/../random/reference.py %S/local_drivers.mlir --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=10,20,30,40,50,60 | FileCheck %S/local_drivers.mlir
// scf.while (issue 15): a condition read back from the carried tensor, and
// one on a counter around a buffer carried to another device.
// RUN: %python %S/../random/reference.py %S/regions/while_read_back.mlir --input=4xi32=1,2,3,4 --input=i32=100 | FileCheck %S/regions/while_read_back.mlir
// RUN: %python %S/../random/reference.py %S/multi_device/walk_while_devices.mlir --function=flat --input=f64=1.5 --input=i16=3 | FileCheck %S/multi_device/walk_while_devices.mlir --check-prefix=FLAT
// RUN: %python %S/../random/reference.py %S/multi_device/walk_while_devices.mlir --function=nested --input=f64=1.5 --input=i16=0 | FileCheck %S/multi_device/walk_while_devices.mlir --check-prefix=NESTED
// A rank-reducing slice of dynamic sizes drops the static unit dim.
// RUN: %python %S/../random/reference.py %S/slices/rank_reduce_dynamic_sizes.mlir --input=1x4x1xi32=1,2,3,4 | FileCheck %S/slices/rank_reduce_dynamic_sizes.mlir --match-full-lines
//
// Reading what a tensor.empty holds is an error of the program, not a value.
// RUN: not %python %S/../random/reference.py %s 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// UNDEFINED: reference.py: error: line {{[0-9]+}}: arith.addi: arith.addi reads a tensor.empty's undefined contents
func.func @main() -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %0 = arith.addi %e, %e : tensor<4xi32>
  return %0 : tensor<4xi32>
}
