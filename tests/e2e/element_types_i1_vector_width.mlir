// An i1 mask read from memory (one byte per element) in a select over more
// elements than a vector register holds, on local-sync and local-task,
// compared with NumPy: vectorized, a 16-lane i1 load read 16 bytes of the
// mask as 16 bits (42 of these 128 results were wrong).
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(128, dtype=np.float32)); np.save('%t.y.npy', -np.arange(128, dtype=np.float32)); np.save('%t.m.npy', np.arange(128) %% 3 == 0)"
// RUN: ferry-compile %s -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.y.npy --input=@%t.m.npy --output=@%t.sync.npy --device=__device_0=local-sync > /dev/null
// RUN: ferry-run %t.fvm --input=@%t.x.npy --input=@%t.y.npy --input=@%t.m.npy --output=@%t.task.npy --device=__device_0=local-task > /dev/null
// RUN: %python -c "import numpy as np; x, y, m = (np.load('%t.%%s.npy' %% n) for n in 'xym'); want = np.where(m, x, y); [np.testing.assert_array_equal(np.load('%t.%%s.npy' %% d), want, err_msg=d) for d in ('sync', 'task')]"

func.func @main(%x: tensor<128xf32>, %y: tensor<128xf32>, %m: tensor<128xi1>)
    -> tensor<128xf32> {
  %sel = arith.select %m, %x, %y : tensor<128xi1>, tensor<128xf32>
  return %sel : tensor<128xf32>
}
