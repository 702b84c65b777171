// The CNN sample (samples/cnn.mlir: 3x3 convolution, bias, ReLU, 2x2 max
// pooling, flatten by collapse_shape, matmul head, weights as dense
// constants) compiled to native dispatches and run on local-sync and
// local-task, against NumPy's result for the same input (float32; the
// tolerance allows for a different summation order). Each weight is
// resident once (constant_bytes: 16,040 bytes of filters, head and biases),
// nothing is copied (the zero accumulator ReLU reads again is refilled, the
// flatten is metadata, the pooling window no allocation); the peak equals
// the liveness walk.
// RUN: %python %samples/models/generate_models.py --reference %t.ref
// RUN: ferry-compile %samples/cnn.mlir -o %t.fvm
// RUN: ferry-run %t.fvm --input=@%t.ref/cnn.input.npy --output=@%t.sync.npy --device=__device_0=local-sync --stats=%t.sync.json
// RUN: ferry-run %t.fvm --input=@%t.ref/cnn.input.npy --output=@%t.task.npy --device=__device_0=local-task --stats=%t.task.json
// RUN: %python -c "import numpy as np; e = np.load('%t.ref/cnn.expected.npy'); [np.testing.assert_allclose(np.load(p), e, rtol=1e-5, atol=1e-6) for p in ('%t.sync.npy', '%t.task.npy')]; assert np.load('%t.sync.npy').argmax() == e.argmax() == 5"
// RUN: %python %S/check_stats.py %t.sync.json live_bytes_at_exit=0 copies=0 constant_bytes=16040 peak_bytes=15136 dispatches=3
// RUN: %python %S/check_stats.py %t.task.json live_bytes_at_exit=0 copies=0 constant_bytes=16040 peak_bytes=15136 dispatches=3
// RUN: ferry-compile %samples/cnn.mlir --compile-to=stream-cmd | ferry-opt --stream-estimate-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: remark: peak live bytes: 15136 (inputs 1024, allocated 14152)
