// An scf.if on tensors of dynamic shape whose branches yield values of
// different sizes (x of 4 elements or y of 8): the dim of the result is an
// index the if chooses (folded to an arith.select) that sizes the product
// after the if, and the liveness walk evaluates it as the larger (it used to
// give no peak: "the size of 'stream.resource.alloca' is not known
// statically"). The walk is the run's peak for the larger branch
// and an upper bound for the other; nothing is live at exit.
// RUN: ferry-compile %s -o %t.fvm
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(4, dtype=np.float32)); np.save('%t.y.npy', np.arange(8, dtype=np.float32) - 3)"
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.y.npy --input=i1=1 --output=@%t.then.r.npy --output=@%t.then.npy --stats=%t.then.json
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.y.npy --input=i1=0 --output=@%t.else.r.npy --output=@%t.else.npy --stats=%t.else.json
// RUN: %python -c "import numpy as np; x, y = np.load('%t.x.npy'), np.load('%t.y.npy'); np.testing.assert_array_equal(np.load('%t.then.r.npy'), x + x); np.testing.assert_array_equal(np.load('%t.then.npy'), (x + x) * (x + x)); np.testing.assert_array_equal(np.load('%t.else.r.npy'), y * y); np.testing.assert_array_equal(np.load('%t.else.npy'), (y * y) * (y * y))"
// RUN: %python %S/../check_stats.py %t.then.json live_bytes_at_exit=0 peak_bytes=80
// RUN: %python %S/../check_stats.py %t.else.json live_bytes_at_exit=0 peak_bytes=112
// RUN: ferry-compile %s --compile-to=stream-cmd | ferry-opt "--stream-estimate-peak-memory=input-shapes=4,8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 112 (inputs 48, allocated 64)
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %c: i1) -> (tensor<?xf32>, tensor<?xf32>) {
  %r = scf.if %c -> tensor<?xf32> {
    %a = arith.addf %x, %x : tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %b = arith.mulf %y, %y : tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  %s = arith.mulf %r, %r : tensor<?xf32>
  return %r, %s : tensor<?xf32>, tensor<?xf32>
}
