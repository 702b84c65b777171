// A scalar --input must have the type of the function's argument; every
// mismatch is a one-line error naming the argument, its type and the input.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --input=f32=2.5 --input=4xf32=1,2,3,4 --input=index=1 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: ferry-run: error: argument 0 of @main is i32, got f32=2.5{{$}}
// RUN: not ferry-run %t.fvm --input=i32=5 --input=4xf32=1,2,3,4 --input=3xi32=1,2,3 2>&1 | FileCheck %s --check-prefix=TENSOR
// TENSOR: ferry-run: error: argument 2 of @main is index, got 3xi32=1,2,3{{$}}
// RUN: not ferry-run %t.fvm --input=i32=x --input=4xf32=1,2,3,4 --input=index=1 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: ferry-run: error: argument 0 of @main is i32, got i32=x: 'x' is not a valid i32{{$}}
// RUN: not ferry-run %t.fvm --input=i32=5000000000 --input=4xf32=1,2,3,4 --input=index=1 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: ferry-run: error: argument 0 of @main is i32, got i32=5000000000: {{.+}}
// RUN: not ferry-run %t.fvm --function=flag --input=i1=2 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: ferry-run: error: argument 0 of @flag is i1, got i1=2: '2' is not a valid i1{{$}}
// A tensor argument given a scalar of another type is a tensor error.
// RUN: not ferry-run %t.fvm --input=i32=5 --input=f32=1 --input=index=1 2>&1 | FileCheck %s --check-prefix=NOT-TENSOR
// NOT-TENSOR: ferry-run: error: input 1: expected 4xf32, got f32{{$}}
// RUN: %python -c "import numpy as np; np.save('%t.f.npy', np.array(1.0, dtype=np.float64))"
// RUN: not ferry-run %t.fvm --input=@%t.f.npy --input=4xf32=1,2,3,4 --input=index=1 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: ferry-run: error: argument 0 of @main is i32, got @{{.+}}.f.npy: expected a 0-d i32, got f64{{$}}

func.func @main(%k: i32, %t: tensor<4xf32>, %n: index) -> (i32, tensor<4xf32>) {
  return %k, %t : i32, tensor<4xf32>
}
func.func @flag(%b: i1) -> i1 {
  return %b : i1
}
