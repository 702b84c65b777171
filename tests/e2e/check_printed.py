"""Checks that each ferry-run output file prints every element of 2 * x
(tests/e2e/print_summary.mlir): no summary, every value right.

usage: check_printed.py INPUT.npy OUTPUT.txt ...
"""
import re
import sys

import numpy as np


def main(argv):
    x = np.load(argv[1])
    want = 2 * x
    prefix = "x".join(map(str, x.shape)) + "xi32="
    for path in argv[2:]:
        text = open(path).read()
        assert text.startswith(prefix) and text.endswith("]\n"), (path, text[:80])
        assert "..." not in text, f"{path} is summarized"
        rows = re.findall(r"\[([^\]]*)\]", text[len(prefix):])
        got = np.array([[int(v) for v in row.split()] for row in rows], dtype=np.int64)
        assert got.shape == want.shape, (path, got.shape)
        assert (got == want).all(), f"{path}: wrong values"


if __name__ == "__main__":
    main(sys.argv)
