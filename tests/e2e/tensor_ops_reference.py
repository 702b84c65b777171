"""NumPy reference for tests/e2e/tensor_ops.mlir.

usage: tensor_ops_reference.py inputs PREFIX N
       tensor_ops_reference.py check PREFIX SUFFIX...

`inputs` writes PREFIX.a.npy (N x 3 f32), PREFIX.b.npy (2 x 3 f32),
PREFIX.img.npy (1 x 7 x 9 x 2 f32) and PREFIX.m.npy (N x 3 i32) from a fixed
seed; `check` compares PREFIX.SUFFIX.outK.npy with @main's results: every
op copies or selects values, so all must be equal exactly.
"""
import sys

import numpy as np

S = np.float32(2.5)  # the scalar argument the test passes (f32=2.5)
I = np.int32(-4)     # and i32=-4


def inputs(prefix, n):
    rng = np.random.default_rng(14)
    np.save(f"{prefix}.a.npy", rng.standard_normal((n, 3)).astype(np.float32))
    np.save(f"{prefix}.b.npy", rng.standard_normal((2, 3)).astype(np.float32))
    np.save(f"{prefix}.img.npy",
            rng.standard_normal((1, 7, 9, 2)).astype(np.float32))
    np.save(f"{prefix}.m.npy",
            rng.integers(-100, 100, (n, 3)).astype(np.int32))


def pool_min(x, kh, kw, sh, sw):
    n, h, w, c = x.shape
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.full((n, oh, ow, c), np.inf, np.float32)
    for i in range(kh):
        for j in range(kw):
            out = np.minimum(out, x[:, i:i + sh * (oh - 1) + 1:sh,
                                    j:j + sw * (ow - 1) + 1:sw, :])
    return out


def expected(prefix):
    a = np.load(f"{prefix}.a.npy")
    b = np.load(f"{prefix}.b.npy")
    img = np.load(f"{prefix}.img.npy")
    m = np.load(f"{prefix}.m.npy")
    n = a.shape[0]
    return [
        np.concatenate([b, a, b], axis=0),                       # concat
        np.full((2, n), S, np.float32),                          # splat
        np.pad(a, ((1, n), (2, 1)), constant_values=7.0),        # pad
        np.pad(m, ((0, 2), (0, 0)), constant_values=-1),         # pad, low 0
        np.array([I, 5, I], np.int32),                           # from_elements
        np.array([[S, 7], [7, S]], np.float32),                  # from_elements
        np.array([3, 3, 5, 3], np.int32),                        # constants
        a.view(np.int32),                                        # bitcast
        pool_min(img, 2, 3, 2, 2),                               # pooling min
        np.concatenate([a, a], axis=1),                          # concat dim 1
    ]


def main(argv):
    if argv[0] == "inputs":
        inputs(argv[1], int(argv[2]))
        return
    prefix = argv[1]
    for suffix in argv[2:]:
        for k, ref in enumerate(expected(prefix)):
            got = np.load(f"{prefix}.{suffix}.out{k}.npy")
            if got.dtype != ref.dtype or not np.array_equal(got, ref):
                sys.exit(f"{suffix} result {k}: got {got.dtype}{got.shape}\n"
                         f"{got}\nexpected {ref.dtype}{ref.shape}\n{ref}")


if __name__ == "__main__":
    main(sys.argv[1:])
