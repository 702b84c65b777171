// Files are read no further than their headers say: one that never ends
// (/dev/zero), holds another format, or is longer than its header says is
// refused after its first bytes with a message naming it. (Reading
// /dev/zero used to go on until memory ran out.) `timeout` turns a hang
// into a failure.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not timeout 60 ferry-run /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO-MODULE
// ZERO-MODULE: ferry-run: error: '/dev/zero': not a Ferry module (bad magic; expected a .fvm file written by ferry-compile){{$}}
// RUN: not timeout 60 ferry-run %t.fvm --input=@/dev/zero --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=ZERO-INPUT
// ZERO-INPUT: ferry-run: error: '/dev/zero': not a NumPy .npy file (bad magic){{$}}
// RUN: not timeout 60 ferry-dump /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO-DUMP
// ZERO-DUMP: ferry-dump: error: '/dev/zero': not a Ferry module (bad magic; expected a .fvm file written by ferry-compile){{$}}

// The other format, recognised by its first bytes.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.arange(4, dtype=np.int32))"
// RUN: not ferry-run %t.a.npy 2>&1 | FileCheck %s --check-prefix=NPY-AS-MODULE
// NPY-AS-MODULE: ferry-run: error: '{{.*}}.a.npy': not a Ferry module: it is a NumPy .npy file{{$}}
// RUN: not ferry-dump %t.a.npy 2>&1 | FileCheck %s --check-prefix=NPY-AS-DUMP
// NPY-AS-DUMP: ferry-dump: error: '{{.*}}.a.npy': not a Ferry module: it is a NumPy .npy file{{$}}
// RUN: not ferry-run %t.fvm --input=@%t.fvm --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=MODULE-AS-INPUT
// MODULE-AS-INPUT: ferry-run: error: '{{.*}}.fvm': not a NumPy .npy file: it is a Ferry module (.fvm){{$}}

// Longer than the header says (the .npy file holds 128 + 16 bytes).
// RUN: cp %t.fvm %t.long.fvm
// RUN: echo trailing >> %t.long.fvm
// RUN: not ferry-run %t.long.fvm 2>&1 | FileCheck %s --check-prefix=LONG-MODULE
// LONG-MODULE: ferry-run: error: '{{.*}}.long.fvm': its module header says the file holds [[SIZE:[0-9]+]] bytes, but it has {{[0-9]+}}{{$}}
// RUN: cp %t.a.npy %t.long.npy
// RUN: echo trailing >> %t.long.npy
// RUN: not ferry-run %t.fvm --input=@%t.long.npy --input=4xi32=1,2,3,4 2>&1 | FileCheck %s --check-prefix=LONG-INPUT
// LONG-INPUT: ferry-run: error: '{{.*}}.long.npy': its NumPy header says the file holds 144 bytes, but it has 153{{$}}
func.func @main(%lhs: tensor<4xi32>, %rhs: tensor<4xi32>) -> tensor<4xi32> {
  %sum = arith.addi %lhs, %rhs : tensor<4xi32>
  return %sum : tensor<4xi32>
}
