// A loop over the rows of a consumed buffer, each iteration reading row %i
// (extract_slice) with a dispatch and inserting the result as row %i + 1:
// the row read is a view and the new row is made in place (its range is
// provably apart from the one read: the offsets differ by one row), so
// the loop costs no copy and no allocation (only the input's). In
// @same_row the new row goes where the read one is: the read stays a copy
// (a kernel must not read what it writes), one per iteration.
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=8x4xf32=0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --stats=%t.json | FileCheck %s --check-prefix=NEXT --match-full-lines
// RUN: ferry-run %t.fvm --device=__device_0=local-task --input=8x4xf32=0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --stats=%t.task.json | FileCheck %s --check-prefix=NEXT --match-full-lines
// RUN: %python %S/../check_stats.py %t.json live_bytes_at_exit=0 copies=0 allocations=1 dispatches=7 peak_bytes=128
// RUN: %python %S/../check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 allocations=1 dispatches=7 peak_bytes=128
// RUN: ferry-run %t.fvm --function=same_row --input=8x4xf32=0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 --stats=%t.same.json | FileCheck %s --check-prefix=SAME --match-full-lines
// RUN: ferry-run %t.fvm --stats=%t.wc0.json --function=same_row --device=__device_0=local-task --input=8x4xf32=0,1,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 | FileCheck %s --check-prefix=SAME --match-full-lines
// RUN: %python %S/../check_stats.py %t.wc0.json live_bytes_at_exit=0 peak_bytes=144
// RUN: %python %S/../check_stats.py %t.same.json live_bytes_at_exit=0 copies=7 dispatches=7 peak_bytes=144
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 128 (inputs 128, allocated 0)
// WALK: remark: peak live bytes: 144 (inputs 128, allocated 16)
// NEXT: 8x4xf32=[0 1 2 3][1 2 3 4][2 3 4 5][3 4 5 6][4 5 6 7][5 6 7 8][6 7 8 9][7 8 9 10]
// SAME: 8x4xf32=[1 2 3 4][1 1 1 1][1 1 1 1][1 1 1 1][1 1 1 1][1 1 1 1][1 1 1 1][0 0 0 0]
// RUN: %python -c "import numpy as np; a = np.zeros((8, 4), np.int64); a[0] = [0, 1, 2, 3]; b = a.copy(); exec('for i in range(7): a[i + 1] = a[i] + 1'); exec('for i in range(7): b[i] = b[i] + 1'); f = lambda d: '8x4xf32=' + ''.join('[' + ' '.join(map(str, r)) + ']' for r in d); print(f(a)); print(f(b))" | FileCheck %s --check-prefixes=NEXT,SAME --match-full-lines

#id = affine_map<(d0) -> (d0)>
func.func @main(%init: tensor<8x4xf32> {iree.abi.consume}) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %init) -> (tensor<8x4xf32>) {
    %row = tensor.extract_slice %acc[%i, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%row : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %one : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    %j = arith.addi %i, %c1 : index
    %acc2 = tensor.insert_slice %next into %acc[%j, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
    scf.yield %acc2 : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

func.func @same_row(%init: tensor<8x4xf32> {iree.abi.consume}) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %init) -> (tensor<8x4xf32>) {
    %row = tensor.extract_slice %acc[%i, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%row : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %one : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>
    %j = arith.addi %i, %c1 : index
    %acc2 = tensor.insert_slice %next into %acc[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
    scf.yield %acc2 : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}
