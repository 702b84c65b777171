"""The scalar bodies of linalg ops in the reference (reference.py): a body
is evaluated on whole NumPy arrays, one array per block argument over the
op's loops, the way the op computes every element at once."""
import re

import numpy as np

from reference_base import NUMPY_DTYPES, EvaluationError, _unsigned, split_top


BODY_BINARY = {
    "addi": np.add, "subi": np.subtract, "muli": np.multiply,
    "addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide,
    "andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor,
    "maxsi": np.maximum, "minsi": np.minimum,
    "maxui": lambda a, b: np.maximum(_unsigned(a), _unsigned(b)).view(a.dtype),
    "minui": lambda a, b: np.minimum(_unsigned(a), _unsigned(b)).view(a.dtype),
    "maximumf": np.maximum, "minimumf": np.minimum,
    "maxnumf": np.fmax, "minnumf": np.fmin,
    "shli": lambda a, b: np.left_shift(a, b),
    "shrsi": lambda a, b: np.right_shift(a, b),
    "shrui": lambda a, b: np.right_shift(_unsigned(a), _unsigned(b).astype(_unsigned(a).dtype)).view(a.dtype),
    # Divisors are positive (the generator masks them): C's truncation.
    "remsi": lambda a, b: np.fmod(a, b),
    "divsi": lambda a, b: (a - np.fmod(a, b)) // b,
    "powf": np.power,
}

BODY_UNARY = {
    "arith.negf": np.negative, "math.absf": np.abs, "math.absi": np.abs,
    "math.exp": np.exp, "math.exp2": np.exp2, "math.log": np.log, "math.log1p": np.log1p,
    "math.tanh": np.tanh, "math.sqrt": np.sqrt,
    "math.rsqrt": lambda a: (np.ones_like(a) / np.sqrt(a)).astype(a.dtype),
    "math.floor": np.floor, "math.ceil": np.ceil,
    # math.round: half away from zero (NumPy's round is to even).
    "math.round": lambda a: (np.sign(a) * np.floor(np.abs(a) + a.dtype.type(0.5))).astype(a.dtype),
    "math.sin": np.sin, "math.cos": np.cos,
}

CMPF = {"oeq": np.equal, "one": np.not_equal, "olt": np.less, "ole": np.less_equal,
        "ogt": np.greater, "oge": np.greater_equal}


def _erf(a):
    import math
    return np.vectorize(math.erf, otypes=[a.dtype])(a)


def element_dtype(name):
    if name == "i1":
        return np.bool_
    if name == "index":
        return np.int64
    return NUMPY_DTYPES[name]


def gather(tensor, indices):
    """`tensor.extract` in a body: the elements at `indices` (arrays of the
    body's shape), each clamped into its dim as Ferry's kernels clamp."""
    array = tensor.array
    clamped = [np.clip(i.astype(np.int64), 0, n - 1) for i, n in zip(indices, array.shape)]
    return array[tuple(clamped)]


def run_body(ops, bindings, outer=None, loop_index=None):
    """The values `linalg.yield` gives: `bindings` maps each block argument
    to an array (all of one shape); `outer` looks up a value from outside
    (a scalar, or a tensor a `tensor.extract` reads); `loop_index(d)` is
    `linalg.index d` as an array of that shape."""
    env = dict(bindings)
    shape = next(iter(bindings.values())).shape if bindings else ()

    def get(name):
        name = name.strip()
        if name not in env and outer is not None:
            env[name] = np.full(shape, outer(name), next(iter(bindings.values())).dtype)
        if name not in env:
            raise EvaluationError(f"use of undefined value {name} in a body")
        return env[name]

    for results, opname, rest, number in ops:
        try:
            if opname == "linalg.yield":
                names = rest.rsplit(":", 1)[0]
                return [get(n) for n in split_top(names)]
            dialect, _, op = opname.partition(".")
            with np.errstate(all="ignore"):
                if opname == "linalg.index":
                    value = loop_index(int(rest.split(":")[0]))
                elif opname == "tensor.extract":
                    m = re.fullmatch(r"(%[\w#]+)\[(.*)\]\s*:.*", rest.strip())
                    value = gather(outer(m.group(1)), [get(i) for i in split_top(m.group(2))])
                elif opname == "arith.constant":
                    value_text, type_text = rest.rsplit(":", 1)
                    t = type_text.strip()
                    value = (value_text.strip() == "true") if t == "i1" else (
                        float(value_text) if t.startswith("f") else int(value_text))
                    value = np.full(shape, value, dtype=element_dtype(t))
                elif opname in ("arith.cmpi", "arith.cmpf"):
                    predicate, a, b_type = rest.split(",", 2)
                    b, type_name = b_type.rsplit(":", 1)
                    a, b = get(a), get(b)
                    predicate = predicate.strip()
                    if opname == "arith.cmpf":
                        value = CMPF[predicate](a, b)
                    else:
                        if predicate.startswith("u"):
                            a, b = _unsigned(a), _unsigned(b)
                        op_ = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
                               "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
                        value = op_[predicate if predicate in ("eq", "ne") else predicate[1:]](a, b)
                elif opname == "arith.select":
                    operands, _ = rest.rsplit(":", 1)
                    c, a, b = (get(n) for n in split_top(operands))
                    value = np.where(c, a, b)
                elif opname in ("arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
                                "arith.uitofp", "arith.fptosi", "arith.extf", "arith.truncf",
                                "arith.index_cast"):
                    m = re.fullmatch(r"(%[\w#]+)\s*:\s*(\w+)\s+to\s+(\w+)", rest)
                    a, dst = get(m.group(1)), element_dtype(m.group(3))
                    if op in ("extui", "uitofp"):
                        a = _unsigned(a)
                    value = a.astype(dst)
                elif opname == "math.fma":
                    operands, _ = rest.rsplit(":", 1)
                    a, b, c = (get(n) for n in split_top(operands))
                    value = a * b + c
                elif opname == "math.erf":
                    value = _erf(get(rest.rsplit(":", 1)[0]))
                elif opname in BODY_UNARY:
                    value = BODY_UNARY[opname](get(rest.rsplit(":", 1)[0]))
                elif dialect in ("arith", "math") and op in BODY_BINARY:
                    operands, _ = rest.rsplit(":", 1)
                    a, b = (get(n) for n in split_top(operands))
                    value = BODY_BINARY[op](a, b)
                else:
                    raise EvaluationError(f"unsupported op {opname} in a body")
            env[results[0]] = np.asarray(value)
        except EvaluationError as e:
            raise EvaluationError(f"line {number}: {opname}: {e}") from None
    raise EvaluationError("a body without linalg.yield")


def parse_maps(rest):
    """The operand dims of each indexing map of a linalg.generic: a list
    of [loop index, ...] per operand, and the iterator types."""
    maps = []
    for m in re.finditer(r"affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>", rest):
        dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
        results = [r.strip() for r in m.group(2).split(",") if r.strip()]
        if any(r not in dims for r in results):
            raise EvaluationError(f"only projected permutation maps: {m.group(0)}")
        maps.append([dims.index(r) for r in results])
    iterators = re.findall(r'"(parallel|reduction)"',
                           re.search(r"iterator_types\s*=\s*\[(.*?)\]", rest).group(1))
    return maps, iterators


def to_loop_space(array, dims, sizes):
    """`array` (axis k indexes loop dims[k]) broadcast over every loop."""
    order = sorted(range(len(dims)), key=lambda k: dims[k])
    moved = np.transpose(array, order) if len(dims) > 1 else array
    shape = [1] * len(sizes)
    for k in order:
        shape[dims[k]] = array.shape[k]
    return np.broadcast_to(moved.reshape(shape), sizes)


def run_generic(maps, iterators, ins, out, body, block_args, outer=None):
    n = len(iterators)
    sizes = [None] * n
    for dims, array in zip(maps, ins + [out]):
        if len(dims) != array.ndim:
            raise EvaluationError(f"map of {len(dims)} results for an operand of rank {array.ndim}")
        for k, d in enumerate(dims):
            if sizes[d] is not None and sizes[d] != array.shape[k]:
                raise EvaluationError(f"loop d{d} has sizes {sizes[d]} and {array.shape[k]}")
            sizes[d] = array.shape[k]
    if None in sizes:
        raise EvaluationError("a loop no operand indexes")
    parallel = [d for d in range(n) if iterators[d] == "parallel"]
    reduction = [d for d in range(n) if iterators[d] == "reduction"]
    if sorted(maps[-1]) != parallel:
        raise EvaluationError("the output map must be a permutation of the parallel loops")
    full = [to_loop_space(a, dims, sizes) for dims, a in zip(maps[:-1], ins)]
    # The accumulator over the parallel loops, in loop order.
    out_dims = maps[-1]
    order = sorted(range(len(out_dims)), key=lambda k: out_dims[k])
    acc = np.transpose(out, order).copy() if out.ndim > 1 else out.copy()
    import itertools
    for point in itertools.product(*(range(sizes[d]) for d in reduction)):
        index = [slice(None)] * n
        for d, i in zip(reduction, point):
            index[d] = i
        values = [f[tuple(index)] for f in full] + [acc]

        def loop_index(d, point=dict(zip(reduction, point))):
            if d in point:
                return np.full(acc.shape, point[d], np.int64)
            axis = parallel.index(d)
            return np.broadcast_to(np.arange(sizes[d]).reshape(
                [-1 if k == axis else 1 for k in range(len(parallel))]), acc.shape)
        acc = np.asarray(run_body(body, dict(zip(block_args, values)), outer,
                                  loop_index)[0]).astype(out.dtype)
    inverse = np.argsort(order)
    return np.transpose(acc, inverse) if out.ndim > 1 else acc
