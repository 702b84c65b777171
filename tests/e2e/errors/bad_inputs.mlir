// Every kind of bad --input gets a one-line message naming the problem.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: ferry-run: error: function 'main' expects 2 inputs, got 1{{$}}
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=5xi32=1,2,3,4,5 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ferry-run: error: {{.*}}input 1{{.*}}4xi32{{.*}}5xi32
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=4xf32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: ferry-run: error: {{.*}}input 1{{.*}}4xi32{{.*}}4xf32
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,x,4 --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: ferry-run: error: {{.*}}'x' is not a valid i32
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --input=4xi32=1,+-2,3,4 2>&1 | FileCheck %s --check-prefix=SIGNS
// SIGNS: ferry-run: error: --input=4xi32=1,+-2,3,4: '+-2' is not a valid i32{{$}}
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3 --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: ferry-run: error: {{.*}}4xi32 needs 4 values, got 3{{$}}
// RUN: not ferry-run %t.fvm --input=4xq7=1,2,3,4 --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=ELEMENT
// ELEMENT: ferry-run: error: {{.*}}q7
// RUN: not ferry-run %t.fvm --function=nope --input=4xi32=1,2,3,4 --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: ferry-run: error: {{.*}}'nope'{{.*}}main
// RUN: not ferry-run %t.fvm --bogus-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: ferry-run: error: {{.*}}--bogus-flag
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
