"""NumPy references for the e2e tests of the 16-bit float and i1 element
types (element_types_*.mlir).

usage: element_types_reference.py CASE inputs PREFIX
       element_types_reference.py CASE check PREFIX RESULT_SUFFIX...

bf16 travels in .npy files as '<u2' arrays of its bits (runtime/tools/npy.h).
The reference computes each op in float32 and rounds the result to the
element type once (NumPy's float16 does this; bf16 rounds to nearest even
here), which is what Ferry's kernels do, so elementwise results must match
bit for bit. Reductions (matmul) round every partial sum in the element
type, in an order NumPy does not share, and math functions are polynomial
approximations in f32: within the tolerance stated per result.
"""
import sys

import numpy as np


def bf16_bits(x):
    """float32 -> bf16 bits, rounded to nearest even (no NaNs here)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits):
    """bf16 bits -> float32, exactly."""
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(
        np.float32)


def bf16(x):
    """float32 rounded to the nearest bf16, as float32."""
    return bf16_value(bf16_bits(x))


def inputs(case, prefix):
    rng = np.random.default_rng(14)
    if case == "floats":
        # f16 a, b (n); bf16 c, d (n, bits); f16 matrices p (m x k), q (k x n).
        a = rng.standard_normal(37).astype(np.float16)
        b = (rng.random(37) + 0.5).astype(np.float16)
        c = bf16_bits(rng.standard_normal(37).astype(np.float32))
        d = bf16_bits((rng.random(37) + 0.5).astype(np.float32))
        p = rng.standard_normal((5, 8)).astype(np.float16)
        q = rng.standard_normal((8, 3)).astype(np.float16)
        for i, x in enumerate((a, b, c, d, p, q)):
            np.save(f"{prefix}.in{i}.npy", x)
    elif case == "bools":
        x = rng.standard_normal(29).astype(np.float32)
        y = rng.standard_normal(29).astype(np.float32)
        m = rng.random(29) < 0.5
        for i, v in enumerate((x, y, m)):
            np.save(f"{prefix}.in{i}.npy", v)
    else:
        sys.exit(f"unknown case {case}")


def expect(case, prefix):
    ins = [np.load(f"{prefix}.in{i}.npy")
           for i in range(6 if case == "floats" else 3)]
    if case == "floats":
        a, b, c, d, p, q = ins
        f32 = np.float32
        # f16: ((a + b) * a) / b, then max with 0.25 (each rounded).
        s = (a.astype(f32) + b.astype(f32)).astype(np.float16)
        m = (s.astype(f32) * a.astype(f32)).astype(np.float16)
        v = (m.astype(f32) / b.astype(f32)).astype(np.float16)
        r0 = np.maximum(v, np.float16(0.25))
        # bf16: (c + d) * c, rounded each time, and its f32 extension.
        cv, dv = bf16_value(c), bf16_value(d)
        t = bf16(cv + dv)
        r1 = bf16_bits(t * cv)
        r2 = bf16_value(r1)
        # f16 matmul (tolerance), and a truncation of the f32 to bf16.
        r3 = (p.astype(f32) @ q.astype(f32)).astype(np.float16)
        r4 = bf16_bits(r2 * np.float32(3))
        # math in f32 (MLIR's polynomial approximations) rounded to the
        # type: within an ulp of the type (f16 2^-10, bf16 2^-7 relative).
        r5 = np.exp(a.astype(f32)).astype(np.float16)
        r6 = bf16(np.tanh(cv))
        return [(r0, 0), (r1, 0), (r2, 0), (r3, 2e-2), (r4, 0), (r5, 2e-3),
                (r6, 1e-2)]
    x, y, m = ins
    lt = x < y
    both = lt & m
    sel = np.where(both, x, y).astype(np.float32)
    anyof = lt | m
    return [(both, 0), (sel, 0), (anyof, 0), (np.ones(4, bool), 0)]


def check(case, prefix, suffixes):
    for suffix in suffixes:
        for i, (ref, tol) in enumerate(expect(case, prefix)):
            got = np.load(f"{prefix}.{suffix}.out{i}.npy")
            if got.dtype != ref.dtype or got.shape != ref.shape:
                sys.exit(f"{suffix} result {i}: {got.dtype}{got.shape}, "
                         f"expected {ref.dtype}{ref.shape}")
            if tol == 0:
                if not np.array_equal(got, ref):
                    sys.exit(f"{suffix} result {i} differs:\n{got}\n{ref}")
            else:
                np.testing.assert_allclose(got.astype(np.float32),
                                           ref.astype(np.float32),
                                           rtol=tol, atol=tol)


def main(argv):
    case, mode, prefix = argv[:3]
    if mode == "inputs":
        inputs(case, prefix)
    else:
        check(case, prefix, argv[3:])


if __name__ == "__main__":
    main(sys.argv[1:])
