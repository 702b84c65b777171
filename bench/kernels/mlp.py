#!/usr/bin/python3
"""The MLP sample at a batch size, and its NumPy baseline.

samples/mlp.mlir runs one input (tensor<1x64xf32>); every tensor<1xN> in it
is the batch dimension, so the batch-B program is the same text with
tensor<Bx...> there (the weights, exact f32 hex constants, are unchanged).

  mlp.py source B              print the batch-B program
  mlp.py numpy B [--repeat R]  time NumPy's forward pass on one batch (the
                               weights parsed from the sample, so both run
                               the same numbers); prints the median wall and
                               process CPU (all threads) seconds per call.
                               Set OPENBLAS_NUM_THREADS for the thread
                               count.
  mlp.py check B FERRY_RUN FVM run FVM once with ferry-run on a random
                               batch and compare with NumPy
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import timeit

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "samples", "mlp.mlir")


def source(batch):
    with open(SAMPLE) as f:
        text = f.read()
    return text.replace("tensor<1x", "tensor<%dx" % batch)


def layers():
    """[(w, b)] of the sample, from its dense constants."""
    with open(SAMPLE) as f:
        text = f.read()
    constants = {}
    for name, data, shape in re.findall(
            r'%(\w+) = arith.constant dense<"0x([0-9A-F]+)"> : tensor<([0-9x]+)xf32>',
            text):
        array = np.frombuffer(bytes.fromhex(data), dtype="<f4")
        constants[name] = array.reshape([int(d) for d in shape.split("x")])
    count = len([n for n in constants if n.startswith("w")])
    return [(constants["w%d" % i], constants["b%d" % i]) for i in range(count)]


def forward(weights, x):
    h = x
    for i, (w, b) in enumerate(weights):
        h = h @ w + b
        if i + 1 < len(weights):
            h = np.maximum(h, np.float32(0))
    return h


def batch_input(batch):
    return np.random.default_rng(14).standard_normal((batch, 64)).astype(np.float32)


def main():
    command, batch = sys.argv[1], int(sys.argv[2])
    if command == "source":
        sys.stdout.write(source(batch))
    elif command == "numpy":
        repeat = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--repeat" else 5
        weights, x = layers(), batch_input(batch)
        forward(weights, x)  # warm up (OpenBLAS starts its threads)
        number = 2000
        walls, cpus = [], []
        for _ in range(repeat):
            cpu = time.process_time()
            walls.append(timeit.timeit(lambda: forward(weights, x), number=number))
            cpus.append(time.process_time() - cpu)
        print("%.9f %.9f" % (statistics.median(walls) / number,
                             statistics.median(cpus) / number))
    elif command == "check":
        ferry_run, module = sys.argv[3], sys.argv[4]
        x = batch_input(batch)
        with tempfile.TemporaryDirectory() as work:
            np.save(os.path.join(work, "x.npy"), x)
            out = os.path.join(work, "out.npy")
            subprocess.run([ferry_run, module, "--input=@" + os.path.join(work, "x.npy"),
                            "--output=@" + out], check=True, stdout=subprocess.DEVNULL)
            got = np.load(out)
        want = forward(layers(), x)
        error = float(np.max(np.abs(got - want)))
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5):
            sys.exit("mlp batch %d: Ferry differs from NumPy (max error %g)" % (batch, error))
        print("mlp batch %d: Ferry matches NumPy (max abs error %.3g)" % (batch, error))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
