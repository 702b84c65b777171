// A contiguous slice taken before a loop and read by a dispatch inside it
// each iteration is a view of its source (the loop reads the row in place):
// no copy of the row, only the clone of the accumulator (an argument, not
// consumed) the loop writes in place. Before, a reader in another block
// made the slice a copy. A write into the source after the loop still
// waits for the loop's reads. N = 0, 1 and 5, on local-sync and local-task,
// against NumPy; nothing left live and the peak is the walk's.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(8 * 256, dtype=np.float32).reshape(8, 256)); np.save('%t.a.npy', np.ones(256, np.float32))"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.a.npy --input=index=3 --input=index=0 --output=@%t.n0.npy --output=@%t.n0.x.npy --stats=%t.n0.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.a.npy --input=index=3 --input=index=1 --output=@%t.n1.npy --output=@%t.n1.x.npy --stats=%t.n1.json
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=@%t.x.npy --input=@%t.a.npy --input=index=3 --input=index=5 --output=@%t.n5.npy --output=@%t.n5.x.npy --stats=%t.n5.json
// RUN: %python -c "import numpy as np; x, a = np.load('%t.x.npy'), np.load('%t.a.npy'); [np.testing.assert_array_equal(np.load('%t.n%d.npy' % n), a + n * x[3]) for n in (0, 1, 5)]; y = x.copy(); y[3] *= 2; [np.testing.assert_array_equal(np.load('%t.n%d.x.npy' % n), y) for n in (0, 1, 5)]"
// The row is no copy: the accumulator's clone (1 KiB), the source's (x is
// not consumed, and @main writes row 3 doubled into it: 8 KiB) and the
// doubled row's update (1 KiB). Each of the row's readers reads x's range
// (before this change: one copy more, of the row).
// RUN: %python %S/../check_stats.py %t.n1.json live_bytes_at_exit=0 copies=3 bytes_copied=10240 peak_bytes=19456
// RUN: %python %S/../check_stats.py %t.n5.json live_bytes_at_exit=0 copies=3 bytes_copied=10240 peak_bytes=19456
// RUN: %python %S/../check_stats.py %t.n0.json live_bytes_at_exit=0 copies=3 peak_bytes=19456
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 19456 (inputs 9216, allocated 10240)
// RUN: ferry-compile %s --compile-to=stream-cmd | FileCheck %s --check-prefix=CMD
// CMD-LABEL: func.func @main(
// CMD:         %[[X:.+]] = stream.tensor.import %arg0
// CMD:         %[[OFFSET:.+]] = arith.muli %arg2, %c1024
// CMD:         scf.for
// CMD:           stream.cmd.dispatch.entry @main_dispatch_0{{.*}} (%[[X]], %{{.+}}) : {{.*}} ranges(%[[OFFSET]], %{{.+}})

func.func @main(%x: tensor<8x256xf32>, %acc: tensor<256xf32>, %i: index, %n: index) -> (tensor<256xf32>, tensor<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %row = tensor.extract_slice %x[%i, 0] [1, 256] [1, 1] : tensor<8x256xf32> to tensor<256xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<256xf32>) {
    %s = arith.addf %a, %row : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  %twice = arith.addf %row, %row : tensor<256xf32>
  %y = tensor.insert_slice %twice into %x[%i, 0] [1, 256] [1, 1] : tensor<256xf32> into tensor<8x256xf32>
  return %r, %y : tensor<256xf32>, tensor<8x256xf32>
}

// A slice of x taken before a loop that carries x and doubles it in place,
// read after the loop: the loop writes the slice's source, so the slice is
// a copy of the values before the loop (as a view it would read the
// doubled ones).
// RUN: ferry-run %t.fvm --function=written --input=8xf32=1,2,3,4,5,6,7,8 --input=index=3 --stats=%t.w.json | FileCheck %s --check-prefix=WRITTEN --match-full-lines
// RUN: ferry-run %t.fvm --function=written --device=__device_0=local-task --input=8xf32=1,2,3,4,5,6,7,8 --input=index=3 | FileCheck %s --check-prefix=WRITTEN --match-full-lines
// WRITTEN: 4xf32=[25 36 49 64]
// WRITTEN-NEXT: 8xf32=[8 16 24 32 40 48 56 64]
// RUN: %python %S/../check_stats.py %t.w.json live_bytes_at_exit=0
func.func @written(%x: tensor<8xf32> {iree.abi.consume}, %n: index) -> (tensor<4xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %x[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
    %b = arith.addf %a, %a : tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  %t = arith.mulf %s, %s : tensor<4xf32>
  return %t, %r : tensor<4xf32>, tensor<8xf32>
}
