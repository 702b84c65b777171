// An output file that cannot be written fails the run with the path and the
// system's reason: a full device reports it at the flush or close of the
// buffered stream, and that call's error is the one named.
// RUN: ferry-compile %s -o %t.fvm
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --output=@/dev/full 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: ferry-run: error: cannot write '/dev/full': No space left on device{{$}}
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --stats=/dev/full 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: ferry-run: error: cannot write '/dev/full': No space left on device{{$}}
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --trace=/dev/full 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: ferry-run: error: --trace: cannot write '/dev/full': No space left on device{{$}}
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 --stats=%t.missing-dir/stats.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ferry-run: error: cannot write '{{.*}}missing-dir/stats.json': No such file or directory{{$}}
// Results, and ferry-dump's text, that cannot be written to stdout.
// RUN: not ferry-run %t.fvm --input=4xi32=1,2,3,4 > /dev/full 2> %t.stdout.err
// RUN: FileCheck %s --check-prefix=STDOUT < %t.stdout.err
// STDOUT: ferry-run: error: cannot write to standard output: No space left on device{{$}}
// RUN: not ferry-dump %t.fvm > /dev/full 2> %t.dump.err
// RUN: FileCheck %s --check-prefix=DUMP < %t.dump.err
// DUMP: ferry-dump: error: cannot write to standard output: No space left on device{{$}}
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = arith.addi %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
