"""NumPy reference of regions/cf_loop_exit_in_body_written_numpy.mlir.

usage: cf_exit_in_body_reference.py X.npy RESULT_PREFIX N...

Checks RESULT_PREFIX + N + '.npy' for each N against the loop: acc = 0;
each iteration t = acc + x, leaving with t once t[0] > 1000, else
acc = t + t; after N iterations it leaves with x.
"""
import sys

import numpy as np


def reference(x, n):
    acc = np.zeros_like(x)
    for _ in range(n):
        t = acc + x
        if t[0] > 1000:
            return t
        acc = t + t
    return x


def main(argv):
    x = np.load(argv[0])
    for n in argv[2:]:
        np.testing.assert_array_equal(np.load(argv[1] + n + ".npy"),
                                      reference(x, int(n)))


if __name__ == "__main__":
    main(sys.argv[1:])
