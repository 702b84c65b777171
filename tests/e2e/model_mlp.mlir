// The MLP sample (samples/mlp.mlir: three matmul layers, broadcast biases,
// ReLU, weights as dense constants) compiled to native dispatches and run on
// local-sync and local-task, against NumPy's result for the same input
// (float32; the tolerance allows for a different summation order). Each
// weight is resident once (constant_bytes: 26,280 bytes of weights and
// biases) and nothing is copied; the peak equals the liveness walk.
// RUN: %python %samples/models/generate_models.py --reference %t.ref
// RUN: ferry-compile %samples/mlp.mlir -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.ref/mlp.input.npy --output=@%t.sync.npy --device=__device_0=local-sync --stats=%t.sync.json
// RUN: ferry-run %t.fvm --input=@%t.ref/mlp.input.npy --output=@%t.task.npy --device=__device_0=local-task --stats=%t.task.json
// RUN: %python -c "import numpy as np; e = np.load('%t.ref/mlp.expected.npy'); [np.testing.assert_allclose(np.load(p), e, rtol=1e-5, atol=1e-6) for p in ('%t.sync.npy', '%t.task.npy')]; assert np.load('%t.sync.npy').argmax() == e.argmax() == 7"
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 constant_bytes=26280 peak_bytes=640 dispatches=3
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 constant_bytes=26280 peak_bytes=640 dispatches=3
// RUN: ferry-compile %samples/mlp.mlir --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 640 (inputs 256, allocated 424)
