// Scalars cross the boundary of a public function: ferry-run feeds them with
// --input=TYPE=VALUE (or a 0-d .npy array), the type checked against the
// function's signature, and prints scalar results as TYPE=VALUE (a 0-d .npy
// array with --output). A scalar argument may be a fill value and a
// dimension, and calls between functions of the module pass scalars too.
// RUN: ferry-compile %s -o %t.fvm

// Scalar in, scalar out: every type ferry-run reads, through a call.
// RUN: ferry-run %t.fvm --function=echo --input=i1=1 --input=i8=-7 --input=i16=300 --input=i32=5 --input=i64=-9000000000 --input=index=7 --input=f32=2.5 --input=f64=-0.125 --stats=%t.echo.json | FileCheck %s --check-prefix=ECHO --match-full-lines
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=echo --device=__device_0=local-task --input=i1=1 --input=i8=-7 --input=i16=300 --input=i32=5 --input=i64=-9000000000 --input=index=7 --input=f32=2.5 --input=f64=-0.125 | FileCheck %s --check-prefix=ECHO --match-full-lines
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=0
// ECHO:      i1=1
// ECHO-NEXT: i8=-7
// ECHO-NEXT: i16=301
// ECHO-NEXT: i32=6
// ECHO-NEXT: i64=-9000000000
// ECHO-NEXT: index=8
// ECHO-NEXT: f32=2.5
// ECHO-NEXT: f64=-0.125
// ECHO-EMPTY:
// RUN: %python %S/check_stats.py %t.echo.json live_bytes_at_exit=0 peak_bytes=0 allocations=0

// A scalar as a fill value and as a dimension; a scalar result next to a
// tensor: 3 x 4 bytes, as the walk says given %n's value (input-shapes:
// nothing for the float %v, then 3; without it the walk says which
// argument it lacks, below).
// RUN: ferry-run %t.fvm --function=fill --input=f32=1.5 --input=index=3 --stats=%t.fill.json | FileCheck %s --check-prefix=FILL --match-full-lines
// RUN: ferry-run %t.fvm --function=fill --device=__device_0=local-task --input=f32=1.5 --input=index=3 --stats=%t.fill-task.json | FileCheck %s --check-prefix=FILL --match-full-lines
// FILL:      3xf32=[1.5 1.5 1.5]
// FILL-NEXT: index=3
// FILL-EMPTY:
// RUN: %python %S/check_stats.py %t.fill.json live_bytes_at_exit=0 peak_bytes=12 fills=1
// RUN: %python %S/check_stats.py %t.fill-task.json live_bytes_at_exit=0 peak_bytes=12 fills=1
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=,3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILLWALK
// FILLWALK:      remark: peak live bytes: 12 (inputs 0, allocated 12)
// FILLWALK-NEXT: func.func @fill

// Scalars into and out of a tensor function called by another.
// RUN: ferry-run %t.fvm --function=main --input=4xi32=1,2,3,4 --input=i32=-3 --stats=%t.main.json | FileCheck %s --check-prefix=MAIN --match-full-lines
// RUN: ferry-run %t.fvm --function=main --device=__device_0=local-task --input=4xi32=1,2,3,4 --input=i32=-3 --stats=%t.main-task.json | FileCheck %s --check-prefix=MAIN --match-full-lines
// MAIN:      i1=1
// MAIN-NEXT: 4xi32=[-3 -6 -9 -12]
// MAIN-EMPTY:
// RUN: %python %S/check_stats.py %t.main.json live_bytes_at_exit=0 peak_bytes=32
// RUN: %python %S/check_stats.py %t.main-task.json live_bytes_at_exit=0 peak_bytes=32
// The walk, per function in order: @inc, @echo, @fill, @scale, @main.
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK:      remark: peak live bytes: 0 (inputs 0, allocated 0)
// WALK-NEXT: func.func private @inc
// WALK:      remark: peak live bytes: 0 (inputs 0, allocated 0)
// WALK-NEXT: func.func @echo
// WALK:      remark: peak live bytes unknown: the size of 'stream.resource.alloca' is not known statically (it depends on argument 1 (index), whose value input-shapes does not give)
// WALK:      remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func private @scale
// WALK:      remark: peak live bytes: 32 (inputs 16, allocated 16)
// WALK-NEXT: func.func @main

// .npy: a scalar result is a 0-d array, and a 0-d array feeds a scalar.
// RUN: ferry-run %t.fvm --stats=%t.wc1.json --function=fill --input=f32=1.5 --input=index=3 --output=@%t.t.npy --output=@%t.n.npy
// RUN: %python %S/check_stats.py %t.wc1.json live_bytes_at_exit=0 peak_bytes=12
// RUN: %python -c "import numpy as np; n = np.load('%t.n.npy'); assert n.shape == () and n.dtype == np.int64 and n == 3, n"
// RUN: %python -c "import numpy as np; np.save('%t.v.npy', np.array(-0.5, dtype=np.float32))"
// RUN: ferry-run %t.fvm --stats=%t.wc2.json --function=fill --input=@%t.v.npy --input=@%t.n.npy | FileCheck %s --check-prefix=NPY --match-full-lines
// RUN: %python %S/check_stats.py %t.wc2.json live_bytes_at_exit=0 peak_bytes=12
// NPY:      3xf32=[-0.5 -0.5 -0.5]
// NPY-NEXT: index=3

func.func private @inc(%a: i16, %b: i32, %c: index) -> (i16, i32, index) {
  %one16 = arith.constant 1 : i16
  %one32 = arith.constant 1 : i32
  %one = arith.constant 1 : index
  %a1 = arith.addi %a, %one16 : i16
  %b1 = arith.addi %b, %one32 : i32
  %c1 = arith.addi %c, %one : index
  return %a1, %b1, %c1 : i16, i32, index
}
func.func @echo(%p: i1, %a: i8, %b: i16, %c: i32, %d: i64, %n: index, %f: f32, %g: f64) -> (i1, i8, i16, i32, i64, index, f32, f64) {
  %b1, %c1, %n1 = call @inc(%b, %c, %n) : (i16, i32, index) -> (i16, i32, index)
  return %p, %a, %b1, %c1, %d, %n1, %f, %g : i1, i8, i16, i32, i64, index, f32, f64
}
func.func @fill(%v: f32, %n: index) -> (tensor<?xf32>, index) {
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f, %n : tensor<?xf32>, index
}
func.func private @scale(%t: tensor<4xi32>, %k: i32) -> (i1, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %f = linalg.fill ins(%k : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %m = arith.muli %t, %f : tensor<4xi32>
  %c0 = arith.constant 0 : i32
  %neg = arith.cmpi slt, %k, %c0 : i32
  return %neg, %m : i1, tensor<4xi32>
}
func.func @main(%t: tensor<4xi32>, %k: i32) -> (i1, tensor<4xi32>) {
  %neg, %m = call @scale(%t, %k) : (tensor<4xi32>, i32) -> (i1, tensor<4xi32>)
  return %neg, %m : i1, tensor<4xi32>
}
