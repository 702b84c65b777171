// ferry-run prints a result of more than 1000 elements summarized, like
// NumPy (the first and last 3 entries of each longer dimension, "..."
// between); --print-max-elements=N moves the limit and --print-all prints
// every element. .npy output is always whole.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.big.npy', np.arange(4096 * 4096, dtype=np.int32).reshape(4096, 4096)); np.save('%t.small.npy', np.arange(100 * 100, dtype=np.int32).reshape(100, 100))"

// 4096x4096 by default: one short line.
// RUN: ferry-run %t.fvm --input=@%t.big.npy --output=@%t.big.out.npy --stats=%t.big.json > %t.big.txt
// RUN: %python %S/check_stats.py %t.big.json live_bytes_at_exit=0 peak_bytes=134217728
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=4096x4096 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIGWALK
// BIGWALK: remark: peak live bytes: 134217728 (inputs 67108864, allocated 67108864)
// RUN: FileCheck %s --check-prefix=BIG --match-full-lines < %t.big.txt
// BIG: 4096x4096xi32=[0 2 4 ... 8186 8188 8190][8192 8194 8196 ... 16378 16380 16382][16384 16386 16388 ... 24570 24572 24574]...[33529856 33529858 33529860 ... 33538042 33538044 33538046][33538048 33538050 33538052 ... 33546234 33546236 33546238][33546240 33546242 33546244 ... 33554426 33554428 33554430]
// BIG-EMPTY:
// RUN: %python -c "import os; n = os.path.getsize('%t.big.txt'); assert n <= 4096, n"
// RUN: %python -c "import numpy as np; x = np.load('%t.big.npy'); out = np.load('%t.big.out.npy'); assert out.shape == (4096, 4096) and (out == 2 * x).all()"

// 100x100 (10,000 elements): summarized by default and at 9,999; whole at
// 10,000 and with --print-all, every value equal to NumPy's.
// RUN: ferry-run %t.fvm --input=@%t.small.npy --stats=%t.small.json | FileCheck %s --check-prefix=SUMMARY --match-full-lines
// RUN: %python %S/check_stats.py %t.small.json live_bytes_at_exit=0 peak_bytes=80000
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory=input-shapes=100x100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALLWALK
// SMALLWALK: remark: peak live bytes: 80000 (inputs 40000, allocated 40000)
// RUN: ferry-run %t.fvm --input=@%t.small.npy --print-max-elements=9999 | FileCheck %s --check-prefix=SUMMARY --match-full-lines
// SUMMARY: 100x100xi32=[0 2 4 ... 194 196 198][200 202 204 ... 394 396 398][400 402 404 ... 594 596 598]...[19400 19402 19404 ... 19594 19596 19598][19600 19602 19604 ... 19794 19796 19798][19800 19802 19804 ... 19994 19996 19998]
// SUMMARY-EMPTY:
// RUN: ferry-run %t.fvm --input=@%t.small.npy --print-max-elements=10000 > %t.limit.txt
// RUN: ferry-run %t.fvm --input=@%t.small.npy --print-all > %t.whole.txt
// RUN: %python %S/check_printed.py %t.small.npy %t.limit.txt %t.whole.txt

// A bad limit is named.
// RUN: not ferry-run %t.fvm --input=@%t.small.npy --print-max-elements=lots 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ferry-run: error: --print-max-elements=lots: expected a number of elements (e.g. --print-max-elements=100000), or --print-all
func.func @main(%a: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = arith.addi %a, %a : tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
