// The model samples (samples/mlp.mlir, samples/cnn.mlir) are what their
// generator writes: weights from its fixed seed, unedited by hand. Both
// parse and verify with upstream MLIR 22, and both compile and run
// (model_mlp.mlir, model_cnn.mlir).
// RUN: %python %samples/models/generate_models.py --check
// RUN: mlir-opt %samples/mlp.mlir -o /dev/null
// RUN: mlir-opt %samples/cnn.mlir -o /dev/null
// RUN: ferry-compile %samples/mlp.mlir -o /dev/null
// RUN: ferry-compile %samples/cnn.mlir -o /dev/null
// RUN: %python %samples/models/generate_models.py --reference %t.ref | FileCheck %s
// CHECK: mlp: top-1 class 7
// CHECK: cnn: top-1 class 5
