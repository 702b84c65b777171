// Scalar integer ops compute at their type's width and wrap there, as
// arith defines them: 65536 * 65536 : i32 is 0, 100 + 100 : i8 is -56, and
// a later comparison or fill sees the wrapped value. The operands reach the
// ops as arguments of private functions, so the compiler cannot fold them.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=main | FileCheck %s --match-full-lines
// RUN: %python %S/check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=46
// CHECK:      1xi32=[0]
// CHECK-NEXT: 1xi8=[-56]
// 100 + 100 : i8 is negative, so the branch takes the "less than 0" edge.
// CHECK-NEXT: 1xi32=[1]
// i16: divui, remsi, shrsi, shrui, shli, maxui, minsi, xori of -7 and 2.
// CHECK-NEXT: 1xi16=[32764]
// CHECK-NEXT: 1xi16=[-1]
// CHECK-NEXT: 1xi16=[-2]
// CHECK-NEXT: 1xi16=[16382]
// CHECK-NEXT: 1xi16=[-28]
// CHECK-NEXT: 1xi16=[-7]
// CHECK-NEXT: 1xi16=[-7]
// CHECK-NEXT: 1xi16=[-5]
// Casts of the i8 -56: extsi, extui, and trunci of 300 : i32 to i8.
// CHECK-NEXT: 1xi32=[-56]
// CHECK-NEXT: 1xi32=[200]
// CHECK-NEXT: 1xi8=[44]
// i1: true + true wraps to false; extsi of true is -1; true <s false.
// CHECK-NEXT: 1xi32=[0]
// CHECK-NEXT: 1xi32=[-1]
// CHECK-NEXT: 1xi32=[1]
// CHECK-EMPTY:

// A zero divisor fails the run, naming the op, its operands and width.
// RUN: not ferry-run %t.fvm --function=divide_by_zero 2>&1 | FileCheck %s --check-prefix=ZERO
// Peak equals the liveness walk's: main's seventeen 1-element results (46 bytes).
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 46 (inputs 0, allocated 46)
// WALK-NEXT: func.func @main
// ZERO: ferry-run: error: {{.*}}(div.s.i): division by zero (7 / 0 : i32)

func.func private @mul32(%a: i32, %b: i32) -> i32 {
  %r = arith.muli %a, %b : i32
  return %r : i32
}
func.func private @add8(%a: i8, %b: i8) -> i8 {
  %r = arith.addi %a, %b : i8
  return %r : i8
}
func.func private @is_negative8(%a: i8) -> i32 {
  %c0 = arith.constant 0 : i8
  %lt = arith.cmpi slt, %a, %c0 : i8
  cf.cond_br %lt, ^yes, ^no
^yes:
  %one = arith.constant 1 : i32
  return %one : i32
^no:
  %zero = arith.constant 0 : i32
  return %zero : i32
}
func.func private @ops16(%a: i16, %b: i16) -> (i16, i16, i16, i16, i16, i16, i16, i16) {
  %0 = arith.divui %a, %b : i16
  %1 = arith.remsi %a, %b : i16
  %2 = arith.shrsi %a, %b : i16
  %3 = arith.shrui %a, %b : i16
  %4 = arith.shli %a, %b : i16
  %5 = arith.maxui %a, %b : i16
  %6 = arith.minsi %a, %b : i16
  %7 = arith.xori %a, %b : i16
  return %0, %1, %2, %3, %4, %5, %6, %7 : i16, i16, i16, i16, i16, i16, i16, i16
}
func.func private @casts(%a: i8, %b: i32) -> (i32, i32, i8) {
  %0 = arith.extsi %a : i8 to i32
  %1 = arith.extui %a : i8 to i32
  %2 = arith.trunci %b : i32 to i8
  return %0, %1, %2 : i32, i32, i8
}
func.func private @bits(%t: i1) -> (i32, i32, i32) {
  %sum = arith.addi %t, %t : i1
  %0 = arith.extui %sum : i1 to i32
  %1 = arith.extsi %t : i1 to i32
  // In signed order true is -1, below false.
  %false = arith.constant false
  %below = arith.cmpi slt, %t, %false : i1
  %2 = arith.extui %below : i1 to i32
  return %0, %1, %2 : i32, i32, i32
}
func.func @main() -> (tensor<1xi32>, tensor<1xi8>, tensor<1xi32>,
                      tensor<1xi16>, tensor<1xi16>, tensor<1xi16>, tensor<1xi16>,
                      tensor<1xi16>, tensor<1xi16>, tensor<1xi16>, tensor<1xi16>,
                      tensor<1xi32>, tensor<1xi32>, tensor<1xi8>,
                      tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %c65536 = arith.constant 65536 : i32
  %c100 = arith.constant 100 : i8
  %m7 = arith.constant -7 : i16
  %c2 = arith.constant 2 : i16
  %c300 = arith.constant 300 : i32
  %true = arith.constant true
  %product = call @mul32(%c65536, %c65536) : (i32, i32) -> i32
  %sum = call @add8(%c100, %c100) : (i8, i8) -> i8
  %negative = call @is_negative8(%sum) : (i8) -> i32
  %o:8 = call @ops16(%m7, %c2) : (i16, i16) -> (i16, i16, i16, i16, i16, i16, i16, i16)
  %c:3 = call @casts(%sum, %c300) : (i8, i32) -> (i32, i32, i8)
  %b:3 = call @bits(%true) : (i1) -> (i32, i32, i32)
  %e0 = tensor.empty() : tensor<1xi32>
  %t0 = linalg.fill ins(%product : i32) outs(%e0 : tensor<1xi32>) -> tensor<1xi32>
  %e1 = tensor.empty() : tensor<1xi8>
  %t1 = linalg.fill ins(%sum : i8) outs(%e1 : tensor<1xi8>) -> tensor<1xi8>
  %e2 = tensor.empty() : tensor<1xi32>
  %t2 = linalg.fill ins(%negative : i32) outs(%e2 : tensor<1xi32>) -> tensor<1xi32>
  %e3 = tensor.empty() : tensor<1xi16>
  %t3 = linalg.fill ins(%o#0 : i16) outs(%e3 : tensor<1xi16>) -> tensor<1xi16>
  %e4 = tensor.empty() : tensor<1xi16>
  %t4 = linalg.fill ins(%o#1 : i16) outs(%e4 : tensor<1xi16>) -> tensor<1xi16>
  %e5 = tensor.empty() : tensor<1xi16>
  %t5 = linalg.fill ins(%o#2 : i16) outs(%e5 : tensor<1xi16>) -> tensor<1xi16>
  %e6 = tensor.empty() : tensor<1xi16>
  %t6 = linalg.fill ins(%o#3 : i16) outs(%e6 : tensor<1xi16>) -> tensor<1xi16>
  %e7 = tensor.empty() : tensor<1xi16>
  %t7 = linalg.fill ins(%o#4 : i16) outs(%e7 : tensor<1xi16>) -> tensor<1xi16>
  %e8 = tensor.empty() : tensor<1xi16>
  %t8 = linalg.fill ins(%o#5 : i16) outs(%e8 : tensor<1xi16>) -> tensor<1xi16>
  %e9 = tensor.empty() : tensor<1xi16>
  %t9 = linalg.fill ins(%o#6 : i16) outs(%e9 : tensor<1xi16>) -> tensor<1xi16>
  %e10 = tensor.empty() : tensor<1xi16>
  %t10 = linalg.fill ins(%o#7 : i16) outs(%e10 : tensor<1xi16>) -> tensor<1xi16>
  %e11 = tensor.empty() : tensor<1xi32>
  %t11 = linalg.fill ins(%c#0 : i32) outs(%e11 : tensor<1xi32>) -> tensor<1xi32>
  %e12 = tensor.empty() : tensor<1xi32>
  %t12 = linalg.fill ins(%c#1 : i32) outs(%e12 : tensor<1xi32>) -> tensor<1xi32>
  %e13 = tensor.empty() : tensor<1xi8>
  %t13 = linalg.fill ins(%c#2 : i8) outs(%e13 : tensor<1xi8>) -> tensor<1xi8>
  %e14 = tensor.empty() : tensor<1xi32>
  %t14 = linalg.fill ins(%b#0 : i32) outs(%e14 : tensor<1xi32>) -> tensor<1xi32>
  %e15 = tensor.empty() : tensor<1xi32>
  %t15 = linalg.fill ins(%b#1 : i32) outs(%e15 : tensor<1xi32>) -> tensor<1xi32>
  %e16 = tensor.empty() : tensor<1xi32>
  %t16 = linalg.fill ins(%b#2 : i32) outs(%e16 : tensor<1xi32>) -> tensor<1xi32>
  return %t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7, %t8, %t9, %t10, %t11, %t12, %t13, %t14, %t15, %t16
      : tensor<1xi32>, tensor<1xi8>, tensor<1xi32>,
        tensor<1xi16>, tensor<1xi16>, tensor<1xi16>, tensor<1xi16>,
        tensor<1xi16>, tensor<1xi16>, tensor<1xi16>, tensor<1xi16>,
        tensor<1xi32>, tensor<1xi32>, tensor<1xi8>,
        tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

func.func private @div32(%a: i32, %b: i32) -> i32 {
  %r = arith.divsi %a, %b : i32
  return %r : i32
}
func.func @divide_by_zero() -> tensor<1xi32> {
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %q = call @div32(%c7, %c0) : (i32, i32) -> i32
  %e = tensor.empty() : tensor<1xi32>
  %t = linalg.fill ins(%q : i32) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  return %t : tensor<1xi32>
}
