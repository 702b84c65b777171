"""NumPy reference for tests/e2e/math_functions.mlir: every `math` function
Ferry compiles, on f32 and f64, against NumPy (and Python's math.erf),
within stated bounds.

usage: math_reference.py inputs PREFIX
       math_reference.py check PREFIX TYPE RUN...

`inputs` writes PREFIX.{f32,f64}.{x,y}.npy from a fixed seed: x in [-8, 8]
(with 0, -0.5, 2.5 and -2.5 for rounding), y in (0, 10] (with 1e-30, where
log1p(y) must be y, not log(1 + y) = 0). `check` compares each
PREFIX.TYPE.RUN.outN.npy (N in the function's result order) with the
reference, measured in units in the last place of the exact result:

  f32: floor, ceil, round, absf: exact; sqrt, fma, exp2, powf: 1 ulp;
       exp, log, log1p: 2 ulp; tanh, erf, rsqrt: 4 ulp (MLIR's polynomial
       approximations); sin, cos: absolute error 1e-6 (the approximation's
       error is absolute, so near a zero of sin the ulp count is large).
  f64: floor, ceil, round, absf: exact; everything else 4 ulp (libm).

Prints the worst error per function, and fails naming every one out of
bounds.
"""
import math
import sys

import numpy as np

NAMES = ["exp", "exp2", "log", "log1p", "tanh", "sqrt", "rsqrt", "erf",
         "powf", "absf", "floor", "ceil", "round", "sin", "cos", "fma"]
F32_ULPS = {"floor": 0, "ceil": 0, "round": 0, "absf": 0, "sqrt": 1,
            "fma": 1, "exp2": 1, "powf": 1, "exp": 2, "log": 2, "log1p": 2,
            "tanh": 4, "erf": 4, "rsqrt": 4}
F32_ABS = {"sin": 1e-6, "cos": 1e-6}
F64_EXACT = ("floor", "ceil", "round", "absf")
DTYPES = {"f32": np.float32, "f64": np.float64}


def reference(name, x, y):
    return {
        "exp": lambda: np.exp(x), "exp2": lambda: np.exp2(x),
        "log": lambda: np.log(y), "log1p": lambda: np.log1p(y),
        "tanh": lambda: np.tanh(x), "sqrt": lambda: np.sqrt(y),
        "rsqrt": lambda: 1 / np.sqrt(y),
        "erf": lambda: np.array([math.erf(v) for v in x]),
        "powf": lambda: np.power(y, x), "absf": lambda: np.abs(x),
        "floor": lambda: np.floor(x), "ceil": lambda: np.ceil(x),
        # math.round: halfway cases away from zero (NumPy rounds to even).
        "round": lambda: np.where(x >= 0, np.floor(x + 0.5),
                                  np.ceil(x - 0.5)),
        "sin": lambda: np.sin(x), "cos": lambda: np.cos(x),
        "fma": lambda: x * y + x,
    }[name]()


def inputs(prefix):
    rng = np.random.default_rng(11)
    n = 4096
    x = np.concatenate([rng.uniform(-8, 8, n), [0.0, -0.5, 2.5, -2.5]])
    y = np.concatenate([rng.uniform(1e-3, 10, n), [1e-30, 1.0, 0.5, 10.0]])
    for t in ("f32", "f64"):
        np.save(f"{prefix}.{t}.x.npy", x.astype(DTYPES[t]))
        np.save(f"{prefix}.{t}.y.npy", y.astype(DTYPES[t]))


def check(prefix, t, runs):
    # Inputs as the program saw them, widened: the reference is f64 math on
    # the same values (for f64 results, NumPy's own rounding counts too).
    x = np.load(f"{prefix}.{t}.x.npy").astype(np.float64)
    y = np.load(f"{prefix}.{t}.y.npy").astype(np.float64)
    failures = []
    for run in runs:
        for i, name in enumerate(NAMES):
            got = np.load(f"{prefix}.{t}.{run}.out{i}.npy").astype(np.float64)
            want = reference(name, x, y)
            err = np.abs(got - want)
            if t == "f32" and name in F32_ABS:
                worst, bound, unit = err.max(), F32_ABS[name], "abs"
            else:
                ulp = np.spacing(np.abs(want).astype(DTYPES[t]))
                ulp = ulp.astype(np.float64)
                worst = (err / ulp).max()
                bound = (F32_ULPS[name] if t == "f32" else
                         0 if name in F64_EXACT else 4)
                # Exact results: one ulp is rounding the f64 reference.
                bound, unit = max(bound, 0.5), "ulp"
            print(f"{t} {run} {name}: {worst:.3g} {unit} (bound {bound})")
            if not worst <= bound:
                failures.append(f"{t} {run} {name}: {worst:.3g} {unit} "
                                f"exceeds {bound}")
    if failures:
        sys.exit("math_reference: " + "; ".join(failures))


def main(argv):
    if argv[0] == "inputs":
        inputs(argv[1])
    elif argv[0] == "check":
        check(argv[1], argv[2], argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
