"""A reference evaluator of Ferry's input semantics, in NumPy.

It reads a program as text (the subset of upstream MLIR Ferry accepts, one op
per line, as the generator in generate.py and the hand-written tests in
tests/e2e write it) and computes a function's results with value semantics:
every SSA value is a value, nothing aliases, a tied external call returns a
new value and leaves its operands as they were. Integers wrap at their
width as `arith` defines (NumPy's fixed-width dtypes do the same for
tensors); a `tensor.empty` has undefined contents, and reading them is an
error of the program, not a result.

Supported: `func.func` (definitions, and declarations of the external
functions in EXTERNAL_FUNCTIONS), `func.call` / `call`, `return`, `cf.br`,
`cf.cond_br` (block arguments of any type, tensors too), `arith.constant`
(integers, floats, `true`/`false`, splat `dense<...>`), the integer ops
of `arith` on scalars (arithmetic, division and remainder, bit ops,
shifts, min/max, extensions, truncation,
`index_cast`, `cmpi`, `select`), on tensors `arith.{add,sub,mul}{i,f}`,
the bit ops, integer and float min/max, `arith.negf`, `math.absf` /
`absi`, `tensor.empty`, `tensor.dim`, `tensor.extract`, `linalg.fill`,
`linalg.matmul` and `linalg.transpose`, `linalg.generic` (its body by
reference_body.py: arith/math ops, `linalg.index`, scalars from outside,
`tensor.extract` of an outside tensor); `tensor.pad` (its region on one
line), `concat`, `from_elements`, `splat`, `bitcast`, `cast`,
`extract_slice` and `insert_slice`, and `cmpi` / `cmpf` / `select` /
`extf` / `truncf` / `extui` / `extsi` / `trunci` on tensors; element types
i1 (bool), f16 (float16) and bf16 (float32 rounded to bf16 after every op
of a bf16 result; `<u2` bits in and out); `scf.for` (with `iter_args`),
`scf.if` (with or without `else`), `scf.while` (its before region ending
in `scf.condition`, its after region's `^bb0` arguments) and `scf.yield`,
their regions spanning
lines and nesting, each region a scope of its own; scalar arguments and results of the
function called (0-d arrays in and out). Device placement
(`stream.affinity`, `hal.device.global`, `stream.topology`) does not change
values and is ignored.

    python3 reference.py PROGRAM.mlir [--function=main] [--input=@x.npy ...]

prints the results in ferry-run's format.
"""
import re
import sys

import numpy as np

from reference_base import NUMPY_DTYPES, EvaluationError, _unsigned, split_top  # noqa: F401
from reference_body import BODY_UNARY, CMPF, _erf, parse_maps, run_generic

INT_WIDTHS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
FLOAT_ELEMENTS = ("f16", "bf16", "f32", "f64")
# The element type of a NumPy dtype (bf16 is never told apart from f32 here).
ELEMENT_OF = {np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64",
              np.float32: "f32", np.float64: "f64", np.bool_: "i1", np.float16: "f16",
              np.uint16: "bf16"}


def round_bf16(array):
    """float32 values rounded to the nearest bf16 (ties to even), as
    float32: what an op computed in f32 and rounded once gives."""
    a = np.atleast_1d(np.asarray(array, dtype=np.float32))
    bits = a.view(np.uint32).astype(np.uint64)
    k16, k1 = np.uint64(16), np.uint64(1)
    rounded = ((bits + np.uint64(0x7FFF) + ((bits >> k16) & k1)) >> k16) << k16
    out = (rounded & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)
    out = np.where(np.isnan(a), a, out).astype(np.float32)
    return out.reshape(np.shape(array))


def bf16_bits(array):
    """bf16 values (float32 arrays holding them) as ferry-run's uint16 bits."""
    return (np.atleast_1d(round_bf16(array)).view(np.uint32) >> np.uint32(16)).astype(
        np.uint16).reshape(np.shape(array))


def from_bf16_bits(bits):
    bits = np.asarray(bits)
    return (np.atleast_1d(bits).astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(
        bits.shape)
MAX_STEPS = 2_000_000


def wrap(value, width):
    """`value` wrapped to `width` bits, as a signed integer (i1 as 0 / 1,
    the way it is stored here; to_signed gives its signed value)."""
    value &= (1 << width) - 1
    if width > 1 and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def to_unsigned(value, width):
    return value & ((1 << width) - 1)


def to_signed(value, width):
    # i1 is stored as 0 / 1; its signed value is 0 / -1.
    value = to_unsigned(value, width)
    return value - (1 << width) if value >= 1 << (width - 1) else value


# --- Types -----------------------------------------------------------------

class TensorType:
    def __init__(self, shape, element):
        self.shape = shape  # list of int or None (dynamic)
        self.element = element

    @staticmethod
    def parse(text):
        m = re.fullmatch(r"tensor<(.*)>", text.strip())
        if not m:
            return None
        parts = m.group(1).split("x")
        shape = [None if p == "?" else int(p) for p in parts[:-1]]
        return TensorType(shape, parts[-1])


def parse_type(text):
    text = text.strip()
    return TensorType.parse(text) or text


class Tensor:
    """A tensor value: its array, and whether its contents are defined."""

    def __init__(self, array, defined=True):
        self.array = array
        self.defined = defined
        # Computed through an op whose result is not exact (INEXACT_OPS).
        self.inexact = False


# --- Parsing ---------------------------------------------------------------

AFFINITY_ATTR = re.compile(r"\s*\{stream\.affinity = #hal\.device\.affinity<@\w+>\}")


def balanced(text, start):
    """The index after the bracket that closes the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "(<[{":
            depth += 1
        elif text[i] in ")>]}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise EvaluationError(f"unbalanced brackets in: {text}")


class Block:
    def __init__(self, label, args):
        self.label = label
        self.args = args  # [(name, type)]
        self.ops = []     # [(results, opname, rest, line number)]


class Function:
    def __init__(self, name, args, results, declaration, ties):
        self.name = name
        self.args = args
        self.results = results
        self.declaration = declaration
        self.ties = ties  # result index -> operand index
        self.blocks = []


def parse_signature_args(text):
    args = []
    for part in split_top(text):
        part = AFFINITY_ATTR.sub("", part).strip()
        if ":" in part and part.startswith("%"):
            name, type_text = part.split(":", 1)
            args.append((name.strip(), parse_type(type_text)))
        else:
            args.append((None, parse_type(part)))
    return args


def parse_function_header(line):
    m = re.match(r"func\.func\s+(?:private\s+)?@([\w.]+)", line)
    name = m.group(1)
    open_paren = line.index("(", m.end() - 1)
    close = balanced(line, open_paren)
    args = parse_signature_args(line[open_paren + 1:close - 1])
    rest = line[close:].strip()
    results, ties = [], {}
    if rest.startswith("->"):
        rest = rest[2:].strip()
        if rest.startswith("("):
            end = balanced(rest, 0)
            result_text, rest = rest[1:end - 1], rest[end:].strip()
        else:
            m2 = re.match(r"([^\s{]+)", rest)
            result_text, rest = m2.group(1), rest[m2.end():].strip()
        for i, part in enumerate(split_top(result_text)):
            tie = re.search(r"iree\.abi\.tied = (\d+)", part)
            if tie:
                ties[i] = int(tie.group(1))
            part = re.sub(r"\s*\{.*\}\s*$", "", part)
            results.append(parse_type(part))
    declaration = not rest.endswith("{")
    return Function(name, args, results, declaration, ties)


def logical_lines(text):
    """(line number, text) of each statement without comments: a statement
    spanning several lines (open brackets, a function's `attributes`, a
    trailing `: types`) is joined into one. A line ending in `{` that opens a
    region (a module's or function's body) ends its statement."""
    statements, pending, start, depth = [], "", 0, 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if not pending and statements and line.startswith((":", "attributes")):
            start, pending = statements.pop()
        elif not pending:
            start = number
        pending = f"{pending} {line}" if pending else line
        opens_region = line.endswith("{") and not line.endswith("attributes {")
        counted = (line[:-1] if opens_region else line).replace("->", "")
        if line != "}" or depth > 0:
            depth += sum(counted.count(c) for c in "(<[{")
            depth -= sum(counted.count(c) for c in ")>]}")
        if depth <= 0:
            statements.append((start, pending))
            pending, depth = "", 0
    if pending:
        statements.append((start, pending))
    return statements


class RegionOp(str):
    """The text of an op with regions (`scf.for`, `scf.if`) after its name,
    without the `{`; `regions` holds each region's ops, in order."""

    regions = ()


REGION_ARGS = re.compile(r"\(((?:\s*%\w+\s*:\s*\w+\s*,?)+)\)\s*$")


def parse_module(text):
    functions = {}
    current = None
    regions = []  # the ops of each open region, innermost last
    owners = []   # the RegionOp of each open region
    for number, line in logical_lines(text):
        if line.startswith("func.func"):
            current = parse_function_header(line)
            functions[current.name] = current
            regions = []
            if current.declaration:
                current = None
            else:
                current.blocks.append(Block(None, current.args))
            continue
        if current is None:
            continue  # module, hal.device.global, topology, closing braces
        if line == "}" or re.fullmatch(r"\}\s*->.*", line):
            # (A linalg.generic's region closes with its result types.)
            if regions:
                regions.pop()
                owners.pop()
            else:
                current = None
            continue
        if re.fullmatch(r"\}\s*(else|do)\s*\{", line):
            if not regions:
                raise EvaluationError(f"line {number}: {line[1:-1].strip()} outside a region")
            regions.pop()
            owner = owners[-1]
            owner.regions.append([])
            regions.append(owner.regions[-1])
            continue
        m = re.match(r"\^(\w+)(?:\((.*)\))?:$", line)
        if m and regions:
            # The entry block of a linalg op's body: its arguments.
            owners[-1].block_args = [n for n, _ in parse_signature_args(m.group(2) or "")]
            continue
        if m:
            args = parse_signature_args(m.group(2)) if m.group(2) else []
            current.blocks.append(Block(m.group(1), args))
            continue
        line = AFFINITY_ATTR.sub("", line)
        m = REGION_ARGS.search(line[:-1]) if line.endswith("{") else None
        if m and m.start() == 0:
            # `(%x: i32, %o: i32) {` on a line of its own: the body of the
            # linalg.map / reduce before it.
            ops = regions[-1] if regions else current.blocks[-1].ops
            results, opname, rest, number = ops.pop()
            line = f"{' , '.join(results)} = {opname} {rest} {line}" if results else line
            line = line.replace(" , ", ", ")
        results = []
        m = re.match(r"((?:%[\w#:]+\s*,\s*)*%[\w#:]+)\s*=\s*", line)
        if m:
            results = [r.strip() for r in m.group(1).split(",")]
            line = line[m.end():]
        m = re.match(r"[\w.]+", line)
        opname, rest = m.group(0), line[m.end():].strip()
        ops = regions[-1] if regions else current.blocks[-1].ops
        if rest.endswith("{"):
            text_ = rest[:-1].strip()
            block_args = []
            m = REGION_ARGS.search(text_) if opname.startswith("linalg.") else None
            if m:
                # linalg.reduce / map: `(%in: f32, %acc: f32) {`.
                block_args = [n for n, _ in parse_signature_args(m.group(1))]
                text_ = text_[:m.start()].strip()
            rest = RegionOp(text_)
            rest.regions = [[]]
            rest.block_args = block_args
            ops.append((results, opname, rest, number))
            regions.append(rest.regions[0])
            owners.append(rest)
            continue
        ops.append((results, opname, rest, number))
    return functions


# --- Evaluation ------------------------------------------------------------

EXTERNAL_FUNCTIONS = {
    # samples/custom_module: out = factor * in, wrapping i32; result tied
    # to operand 1.
    "Double.function": lambda a: (a[0].array * np.int32(2),),
    "Triple.function": lambda a: (a[0].array * np.int32(3),),
}

SCALAR_BINARY = {
    "addi": lambda a, b, w: a + b,
    "subi": lambda a, b, w: a - b,
    "muli": lambda a, b, w: a * b,
    "andi": lambda a, b, w: a & b,
    "ori": lambda a, b, w: a | b,
    "xori": lambda a, b, w: a ^ b,
}


def _check_divisor(b, what):
    if b == 0:
        raise EvaluationError(f"{what}: division by zero")


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def scalar_op(op, a, b, width):
    """`arith.<op>` on two integers of `width` bits, each given signed."""
    if op in SCALAR_BINARY:
        return wrap(SCALAR_BINARY[op](a, b, width), width)
    sa, sb = to_signed(a, width), to_signed(b, width)
    ua, ub = to_unsigned(a, width), to_unsigned(b, width)
    if op in ("divsi", "remsi", "ceildivsi", "floordivsi"):
        _check_divisor(sb, op)
        if sa == -(1 << (width - 1)) and sb == -1:
            raise EvaluationError(f"{op}: signed overflow")
        if op == "divsi":
            return wrap(_trunc_div(sa, sb), width)
        if op == "remsi":
            return wrap(sa - _trunc_div(sa, sb) * sb, width)
        if op == "floordivsi":
            return wrap(sa // sb, width)
        return wrap(-((-sa) // sb), width)
    if op in ("divui", "remui", "ceildivui"):
        _check_divisor(ub, op)
        if op == "divui":
            return wrap(ua // ub, width)
        if op == "remui":
            return wrap(ua % ub, width)
        return wrap(-((-ua) // ub), width)
    if op in ("shli", "shrsi", "shrui"):
        if ub >= width:
            raise EvaluationError(f"{op}: shift by {ub} >= width {width}")
        if op == "shli":
            return wrap(ua << ub, width)
        if op == "shrsi":
            return wrap(sa >> ub, width)
        return wrap(ua >> ub, width)
    if op == "minsi":
        return wrap(min(sa, sb), width)
    if op == "maxsi":
        return wrap(max(sa, sb), width)
    if op == "minui":
        return wrap(min(ua, ub), width)
    if op == "maxui":
        return wrap(max(ua, ub), width)
    raise EvaluationError(f"unsupported scalar op arith.{op}")


def compare(predicate, a, b, width):
    sa, sb = to_signed(a, width), to_signed(b, width)
    ua, ub = to_unsigned(a, width), to_unsigned(b, width)
    return {
        "eq": ua == ub, "ne": ua != ub,
        "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb,
        "ult": ua < ub, "ule": ua <= ub, "ugt": ua > ub, "uge": ua >= ub,
    }[predicate]


def scalar_value(value, type_name):
    """A Python integer in the canonical form for `type_name` (i1: 0/1)."""
    width = INT_WIDTHS[type_name]
    return to_unsigned(value, 1) if width == 1 else wrap(value, width)


TENSOR_BINARY = {
    "addi": lambda a, b: a + b, "addf": lambda a, b: a + b,
    "subi": lambda a, b: a - b, "subf": lambda a, b: a - b,
    "muli": lambda a, b: a * b, "mulf": lambda a, b: a * b,
    "andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor,
    "maxsi": np.maximum, "minsi": np.minimum,
    "maxui": lambda a, b: np.maximum(_unsigned(a), _unsigned(b)).view(a.dtype),
    "minui": lambda a, b: np.minimum(_unsigned(a), _unsigned(b)).view(a.dtype),
    # No NaNs reach these (inputs are finite), so IEEE maximum and maxnum
    # agree; NumPy's maximum propagates NaN like arith.maximumf would.
    "maximumf": np.maximum, "minimumf": np.minimum,
}

TENSOR_UNARY = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.absi": np.abs,  # wraps at the minimum, as math.absi does
}


def has_inexact_op(rest):
    for region in getattr(rest, "regions", ()):
        for _, opname, inner, _ in region:
            if opname in INEXACT_OPS or has_inexact_op(inner):
                return True
    return False


def defined_operands(what, *tensors):
    for t in tensors:
        if not t.defined:
            raise EvaluationError(f"{what} reads a tensor.empty's undefined contents")


def tensor_binary(op, a, b):
    defined_operands(f"arith.{op}", a, b)
    if a.array.shape != b.array.shape:
        raise EvaluationError(f"arith.{op}: shapes {a.array.shape} and {b.array.shape} differ")
    if op not in TENSOR_BINARY:
        raise EvaluationError(f"unsupported tensor op arith.{op}")
    with np.errstate(over="ignore", invalid="ignore"):
        return Tensor(TENSOR_BINARY[op](a.array, b.array))



# --- Linalg ops and their bodies -------------------------------------------
#
# A body (linalg.generic / reduce / map) runs vectorized: each block argument
# is an array over the points of the iteration space evaluated at once, each
# scalar op of the body an op on those arrays in the element type (NumPy's
# fixed-width integers wrap like arith's; float32 stays float32).

FLOAT_DTYPES = {"f32": np.float32, "f64": np.float64}

# Results of these are not exact: compared within the tolerance of
# run_random.compare's `inexact` case (README.md, "Tolerances").
INEXACT_OPS = ("math.exp", "math.exp2", "math.log", "math.log1p", "math.tanh", "math.sqrt",
               "math.rsqrt", "math.erf", "math.sin", "math.cos", "math.powf", "arith.divf",
               "linalg.softmax")

def conv_windows(x, kh, kw, strides, dilations, oh, ow):
    """x: N H W C -> the kh*kw windows, each N OH OW C."""
    parts = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            parts.append(x[:, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                           c0:c0 + strides[1] * (ow - 1) + 1:strides[1], :])
    return parts


def window_attr(rest, name):
    m = re.search(name + r"\s*=\s*dense<(\[?[\d,\s]+\]?)>", rest)
    if not m:
        return [1, 1]
    text = m.group(1).strip("[] ")
    values = [int(v) for v in text.split(",")]
    return values * 2 if len(values) == 1 else values


def linalg_named(opname, rest, ins, out):
    """The result of a named linalg op (destination-passing: `out` is the
    initial value of the accumulator where the op accumulates)."""
    a = [t.array for t in ins]
    o = out.array
    if opname == "linalg.copy":
        return a[0].copy()
    if opname == "linalg.broadcast":
        dims = [int(d) for d in re.search(r"dimensions\s*=\s*\[(.*?)\]", rest).group(1).split(",")]
        shape = list(o.shape)
        kept = [s for k, s in enumerate(shape) if k not in dims]
        if list(a[0].shape) != kept:
            raise EvaluationError(f"broadcast of {a[0].shape} into {o.shape} along {dims}")
        view = a[0].reshape([1 if k in dims else s for k, s in enumerate(shape)])
        return np.broadcast_to(view, shape).copy()
    if opname == "linalg.batch_matmul":
        return o + np.matmul(a[0], a[1])
    if opname == "linalg.matvec":
        return o + np.matmul(a[0], a[1])
    if opname == "linalg.vecmat":
        return o + np.matmul(a[0], a[1])
    if opname == "linalg.dot":
        return o + np.sum(a[0] * a[1], dtype=o.dtype)
    strides, dilations = window_attr(rest, "strides"), window_attr(rest, "dilations")
    if opname in ("linalg.conv_2d_nhwc_hwcf", "linalg.conv_2d_nchw_fchw"):
        x, f = a
        if opname == "linalg.conv_2d_nchw_fchw":
            x, f, o = x.transpose(0, 2, 3, 1), f.transpose(2, 3, 1, 0), o.transpose(0, 2, 3, 1)
        kh, kw = f.shape[:2]
        acc = o.copy()
        for k, p in enumerate(conv_windows(x, kh, kw, strides, dilations, o.shape[1], o.shape[2])):
            acc = acc + np.einsum("nhwc,cf->nhwf", p, f[k // kw, k % kw]).astype(o.dtype)
        return acc.transpose(0, 3, 1, 2) if opname == "linalg.conv_2d_nchw_fchw" else acc
    if opname == "linalg.depthwise_conv_2d_nhwc_hwc":
        x, f = a
        kh, kw = f.shape[:2]
        acc = o.copy()
        for k, p in enumerate(conv_windows(x, kh, kw, strides, dilations, o.shape[1], o.shape[2])):
            acc = acc + p * f[k // kw, k % kw]
        return acc
    if opname in ("linalg.pooling_nhwc_max", "linalg.pooling_nhwc_sum"):
        x, window = a
        kh, kw = window.shape
        acc = o.copy()
        for p in conv_windows(x, kh, kw, strides, dilations, o.shape[1], o.shape[2]):
            acc = np.maximum(acc, p) if opname.endswith("max") else acc + p
        return acc
    if opname == "linalg.softmax":
        axis = int(re.search(r"dimension\((\d+)\)", rest).group(1))
        x = a[0]
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    raise EvaluationError(f"unsupported op {opname}")


LINALG_NAMED = ("linalg.copy", "linalg.broadcast", "linalg.batch_matmul", "linalg.matvec",
                "linalg.vecmat", "linalg.dot", "linalg.conv_2d_nhwc_hwcf",
                "linalg.conv_2d_nchw_fchw", "linalg.depthwise_conv_2d_nhwc_hwc",
                "linalg.pooling_nhwc_max", "linalg.pooling_nhwc_sum", "linalg.softmax")

# Ops whose `outs` value is read (accumulated into), not only overwritten.
READS_OUTS = ("linalg.batch_matmul", "linalg.matvec", "linalg.vecmat", "linalg.dot",
              "linalg.conv_2d_nhwc_hwcf", "linalg.conv_2d_nchw_fchw",
              "linalg.depthwise_conv_2d_nhwc_hwc", "linalg.pooling_nhwc_max",
              "linalg.pooling_nhwc_sum", "linalg.reduce")


def parse_ins_outs(rest):
    """([in names], out name) of `ins(%a, %b : T, U) outs(%o : V)`."""
    m = re.search(r"ins\((.*?)\s*:[^)]*?\)\s*outs\((%[\w#]+)\s*:", rest)
    if not m:
        raise EvaluationError(f"cannot parse ins/outs of {rest}")
    return split_top(m.group(1)), m.group(2)


# --- tensor ops (tensor_gen.py) --------------------------------------------

def _index(ev, env, text):
    text = text.strip()
    return ev.lookup(env, text) if text.startswith("%") else int(text)


def _tensor(ev, env, name, what):
    t = ev.lookup(env, name)
    defined_operands(what, t)
    return t


def _result_type(text):
    return parse_type(re.split(r"\s+(?:to|into)\s+|->", text)[-1])


def _shape_of(type_, sizes):
    """The static shape of `type_` with `sizes` (ints) for its `?` dims."""
    sizes = list(sizes)
    return [sizes.pop(0) if d is None else d for d in type_.shape]


def _check_static(type_, shape, what):
    if len(type_.shape) != len(shape) or any(
            d is not None and d != s for d, s in zip(type_.shape, shape)):
        raise EvaluationError(f"{what}: shape {list(shape)} is not {type_.shape}")


def _slice_spec(ev, env, text):
    m = re.match(r"\[(.*?)\]\s*\[(.*?)\]\s*\[(.*?)\]", text.strip())
    if not m:
        raise EvaluationError(f"cannot parse slice {text}")
    return [[_index(ev, env, x) for x in split_top(g)] for g in m.groups()] + [text[m.end():]]


def _slicer(shape, offsets, sizes, strides, what):
    index = []
    for d, (o, n, st) in enumerate(zip(offsets, sizes, strides)):
        if st <= 0 or o < 0 or n < 0 or (n > 0 and o + (n - 1) * st >= shape[d]):
            raise EvaluationError(f"{what}: dimension {d} out of bounds")
        index.append(slice(o, o + (n - 1) * st + 1 if n else o, st))
    return tuple(index)


def tensor_extract_slice(ev, env, rest):
    m = re.match(r"(%[\w#]+)", rest)
    source = _tensor(ev, env, m.group(1), "tensor.extract_slice")
    offsets, sizes, strides, tail = _slice_spec(ev, env, rest[m.end():])
    array = source.array[_slicer(source.array.shape, offsets, sizes, strides,
                                 "tensor.extract_slice")]
    type_ = _result_type(tail)
    # A rank-reducing slice drops unit dims, chosen as MLIR's
    # ExtractSliceOp::getDroppedDims does: from the last dim back, a dim is
    # dropped where its size is a static 1 and the result's dim matched
    # against it is not 1 (or the result has no dim left). The data is the
    # same whichever ones, not the shape: sizes [1, %two, %one] reduced to
    # ?x? keep the last two (random seed 1789).
    if len(type_.shape) < array.ndim:
        sizes_text = split_top(re.match(r"\[.*?\]\s*\[(.*?)\]", rest[m.end():].strip()).group(1))
        unit = [x.strip() == "1" for x in sizes_text]
        kept, pos = [], len(type_.shape) - 1
        for d in reversed(range(array.ndim)):
            if pos >= 0 and (not unit[d] or type_.shape[pos] == 1):
                kept.insert(0, array.shape[d])
                pos -= 1
            elif not unit[d]:
                raise EvaluationError(f"tensor.extract_slice: cannot reduce {array.shape} "
                                      f"to {type_.shape}")
        if pos >= 0:
            raise EvaluationError(f"tensor.extract_slice: cannot reduce {array.shape} "
                                  f"to {type_.shape}")
        array = array.reshape(kept)
    _check_static(type_, array.shape, "tensor.extract_slice")
    out = Tensor(array.copy())
    out.inexact = source.inexact
    return out


def tensor_insert_slice(ev, env, rest):
    m = re.match(r"(%[\w#]+)\s+into\s+(%[\w#]+)", rest)
    source = _tensor(ev, env, m.group(1), "tensor.insert_slice")
    dest = ev.lookup(env, m.group(2))
    offsets, sizes, strides, tail = _slice_spec(ev, env, rest[m.end():])
    array = dest.array.copy()
    index = _slicer(array.shape, offsets, sizes, strides, "tensor.insert_slice")
    target = array[index]
    if source.array.size != target.size:
        raise EvaluationError(f"tensor.insert_slice: {source.array.shape} into {target.shape}")
    array[index] = source.array.reshape(target.shape)
    if not dest.defined and target.size != array.size:
        raise EvaluationError("tensor.insert_slice into part of a tensor.empty")
    out = Tensor(array)
    out.inexact = source.inexact or dest.inexact
    return out


def tensor_pad(ev, env, rest):
    m = re.match(r"(%[\w#]+)\s+low\[(.*?)\]\s+high\[(.*?)\]\s*\{.*tensor\.yield\s+(%[\w#]+)"
                 r"\s*:\s*\w+\s*\}", rest)
    if not m:
        raise EvaluationError(f"cannot parse tensor.pad {rest}")
    source = _tensor(ev, env, m.group(1), "tensor.pad")
    low = [_index(ev, env, x) for x in split_top(m.group(2))]
    high = [_index(ev, env, x) for x in split_top(m.group(3))]
    value = ev.lookup(env, m.group(4))
    if source.array.dtype != np.bool_ and source.array.dtype.kind == "i":
        value = to_signed(value, source.array.dtype.itemsize * 8)
    array = np.pad(source.array, list(zip(low, high)), constant_values=value)
    _check_static(_result_type(rest[m.end():]), array.shape, "tensor.pad")
    return Tensor(array.astype(source.array.dtype))


def tensor_concat(ev, env, rest):
    m = re.match(r"dim\((\d+)\)\s+(.*?)\s*:", rest)
    tensors = [_tensor(ev, env, n, "tensor.concat") for n in split_top(m.group(2))]
    array = np.concatenate([t.array for t in tensors], axis=int(m.group(1)))
    _check_static(_result_type(rest), array.shape, "tensor.concat")
    out = Tensor(array)
    out.inexact = any(t.inexact for t in tensors)
    return out


def _element_value(value, element):
    if element in FLOAT_ELEMENTS:
        return float(value)
    if element == "i1":
        return bool(value & 1)
    return to_signed(value, INT_WIDTHS[element])


def tensor_from_elements(ev, env, rest):
    names, type_text = rest.rsplit(":", 1)
    type_ = parse_type(type_text)
    values = [_element_value(ev.lookup(env, n), type_.element) for n in split_top(names)]
    return Tensor(np.array(values, dtype=NUMPY_DTYPES[type_.element]).reshape(type_.shape))


def tensor_splat(ev, env, rest):
    m = re.match(r"(%[\w#]+)(?:\[(.*?)\])?\s*:\s*(.*)", rest)
    type_ = parse_type(m.group(3))
    sizes = [ev.lookup(env, n) for n in split_top(m.group(2) or "")]
    value = _element_value(ev.lookup(env, m.group(1)), type_.element)
    return Tensor(np.full(_shape_of(type_, sizes), value, dtype=NUMPY_DTYPES[type_.element]))


def tensor_bitcast(ev, env, rest):
    m = re.match(r"(%[\w#]+)\s*:\s*(.*?)\s+to\s+(.*)", rest)
    source = _tensor(ev, env, m.group(1), "tensor.bitcast")
    src, dst = parse_type(m.group(2)), parse_type(m.group(3))
    array = source.array
    if src.element == "bf16":
        array = bf16_bits(array)
    if dst.element == "bf16":
        return Tensor(from_bf16_bits(array.view(np.uint16)))
    return Tensor(array.view(NUMPY_DTYPES[dst.element]).copy())


def tensor_cast(ev, env, rest):
    m = re.match(r"(%[\w#]+)\s*:\s*(.*?)\s+to\s+(.*)", rest)
    source = ev.lookup(env, m.group(1))
    _check_static(parse_type(m.group(3)), source.array.shape, "tensor.cast")
    return source


TENSOR_OPS = {
    "tensor.extract_slice": tensor_extract_slice,
    "tensor.insert_slice": tensor_insert_slice,
    "tensor.pad": tensor_pad,
    "tensor.concat": tensor_concat,
    "tensor.from_elements": tensor_from_elements,
    "tensor.splat": tensor_splat,
    "tensor.bitcast": tensor_bitcast,
    "tensor.cast": tensor_cast,
}

TENSOR_CMPI = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
               "sgt": np.greater, "sge": np.greater_equal}


class Evaluator:
    def __init__(self, functions):
        self.functions = functions
        self.steps = 0
        self.constants = set()  # names an arith.constant defines
        # An scf.for ran no iteration and its bounds were not both
        # constants, or an scf.while's after region never ran.
        self.zero_trip_dynamic = False
        # Some scf.if ran (one of its branches), or a cf.cond_br of a
        # function with tensors (the import lifts it to an scf.if).
        self.ran_if = False
        self.inexact_scalars = set()  # float scalars read from inexact tensors

    def call(self, name, args):
        function = self.functions.get(name)
        if function is None:
            raise EvaluationError(f"call to unknown function @{name}")
        if function.declaration:
            return self.call_external(function, args)
        if len(args) != len(function.args):
            raise EvaluationError(f"@{name} takes {len(function.args)} arguments, got {len(args)}")
        env = {}
        block = function.blocks[0]
        block_args = args
        while True:
            for (name_, _), value in zip(block.args, block_args):
                env[name_] = value
            block, block_args, returned = self.run_block(function, block, env)
            if returned is not None:
                return returned

    def call_external(self, function, args):
        impl = EXTERNAL_FUNCTIONS.get(function.name)
        if impl is None:
            raise EvaluationError(f"no reference for external @{function.name}")
        for i, operand in function.ties.items():
            if args[operand].array.shape != args[0].array.shape:
                raise EvaluationError(f"@{function.name}: output shape differs")
        if not args[0].defined:
            raise EvaluationError(f"@{function.name} reads undefined contents")
        with np.errstate(over="ignore"):
            return [Tensor(np.asarray(r).astype(args[0].array.dtype)) for r in impl(args)]

    def lookup(self, env, name):
        name = name.strip()
        if "#" in name:
            base, index = name.split("#")
            return env[base][int(index)]
        if name not in env:
            raise EvaluationError(f"use of undefined value {name}")
        return env[name]

    def define(self, env, results, values):
        if len(results) == 1 and ":" in results[0]:
            base, count = results[0].split(":")
            if int(count) != len(values):
                raise EvaluationError(f"{results[0]}: {len(values)} results")
            env[base] = list(values)
            return
        if len(results) != len(values):
            raise EvaluationError(f"{results}: {len(values)} results")
        for r, v in zip(results, values):
            env[r] = v

    def branch_target(self, function, text, env):
        """`^bb(%a, %b : T, U)` -> (block, values)."""
        m = re.fullmatch(r"\^(\w+)(?:\((.*)\))?", text.strip())
        label, operands = m.group(1), m.group(2)
        values = []
        if operands:
            names = operands.rsplit(":", 1)[0]
            values = [self.lookup(env, n) for n in split_top(names)]
        for block in function.blocks:
            if block.label == label:
                return block, values
        raise EvaluationError(f"branch to unknown block ^{label}")

    def run_block(self, function, block, env):
        for results, opname, rest, number in block.ops:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise EvaluationError("too many steps (does the program terminate?)")
            try:
                outcome = self.run_op(function, env, results, opname, rest)
                self.track(env, results, opname, rest)
            except EvaluationError as e:
                raise EvaluationError(f"line {number}: {opname}: {e}") from None
            if outcome is not None:
                return outcome
        raise EvaluationError(f"block ^{block.label} of @{function.name} has no terminator")

    def run_region(self, function, ops, env, bindings):
        """The values an `scf.yield` of `ops` gives (for `scf.condition`:
        its condition and the values), in a scope of its own: `env` and
        `bindings` (region arguments) visible, nothing defined inside
        visible after it."""
        env = dict(env)
        env.update(bindings)
        for results, opname, rest, number in ops:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise EvaluationError("too many steps (does the program terminate?)")
            try:
                if opname == "scf.yield":
                    if not rest:
                        return []
                    names = rest.rsplit(":", 1)[0]
                    return [self.lookup(env, n) for n in split_top(names)]
                if opname == "scf.condition":
                    m = re.fullmatch(r"\((%[\w#]+)\)\s*(.*)", rest.strip())
                    if not m:
                        raise EvaluationError(f"cannot parse scf.condition {rest}")
                    names = m.group(2).rsplit(":", 1)[0] if m.group(2) else ""
                    return (self.lookup(env, m.group(1)),
                            [self.lookup(env, n) for n in split_top(names)])
                outcome = self.run_op(function, env, results, opname, rest)
                self.track(env, results, opname, rest)
            except EvaluationError as e:
                raise EvaluationError(f"line {number}: {opname}: {e}") from None
            if outcome is not None:
                raise EvaluationError(f"line {number}: {opname} inside a region")
        raise EvaluationError("a region without scf.yield")

    def run_for(self, function, env, results, rest):
        m = re.fullmatch(r"(%\w+)\s*=\s*(%[\w#]+)\s+to\s+(%[\w#]+)\s+step\s+(%[\w#]+)"
                         r"(?:\s+iter_args\((.*?)\))?(?:\s*->.*)?", rest.strip())
        if not m:
            raise EvaluationError(f"cannot parse scf.for {rest}")
        lb, ub, step = (self.lookup(env, m.group(k)) for k in (2, 3, 4))
        if step <= 0:
            raise EvaluationError(f"step {step} is not positive")
        names, values = [], []
        for part in split_top(m.group(5) or ""):
            name, init = part.split("=")
            names.append(name.strip())
            values.append(self.lookup(env, init))
        if to_signed(lb, 64) >= to_signed(ub, 64) and not (
                m.group(2) in self.constants and m.group(3) in self.constants):
            self.zero_trip_dynamic = True
        i = lb
        while to_signed(i, 64) < to_signed(ub, 64):
            bindings = dict(zip(names, values))
            bindings[m.group(1)] = i
            values = self.run_region(function, rest.regions[0], env, bindings)
            if len(values) != len(names):
                raise EvaluationError(f"scf.yield of {len(values)} values, {len(names)} carried")
            i += step
        self.define(env, results, values)

    def run_while(self, function, env, results, rest):
        """The before region (first on the initial values), then while its
        condition holds the after region on what it passes on and the
        before region on what that yields; the results are what the last
        condition passed on."""
        m = re.fullmatch(r"\((.*?)\)\s*:.*", rest.strip())
        if not m or len(rest.regions) != 2:
            raise EvaluationError(f"cannot parse scf.while {rest}")
        names, values = [], []
        for part in split_top(m.group(1)):
            name, init = part.split("=")
            names.append(name.strip())
            values.append(self.lookup(env, init))
        after_args = getattr(rest, "block_args", [])
        iterations = 0
        while True:
            outcome = self.run_region(function, rest.regions[0], env, dict(zip(names, values)))
            if not isinstance(outcome, tuple):
                raise EvaluationError("the before region does not end in scf.condition")
            go, values = outcome
            if not go:
                break
            if len(values) != len(after_args):
                raise EvaluationError(f"scf.condition passes {len(values)} values, "
                                      f"the after region takes {len(after_args)}")
            values = self.run_region(function, rest.regions[1], env, dict(zip(after_args, values)))
            if len(values) != len(names):
                raise EvaluationError(f"scf.yield of {len(values)} values, {len(names)} carried")
            iterations += 1
        if not iterations:
            # The walk counts the after region, which never ran.
            self.zero_trip_dynamic = True
        self.define(env, results, values)

    def run_if(self, function, env, results, rest):
        m = re.fullmatch(r"(%[\w#]+)(?:\s*->.*)?", rest.strip())
        if not m:
            raise EvaluationError(f"cannot parse scf.if {rest}")
        regions = rest.regions
        self.ran_if = True
        if self.lookup(env, m.group(1)):
            values = self.run_region(function, regions[0], env, {})
        elif len(regions) > 1:
            values = self.run_region(function, regions[1], env, {})
        else:
            values = []
        self.define(env, results, values)

    def run_op(self, function, env, results, opname, rest):
        if opname == "scf.for":
            return self.run_for(function, env, results, rest)
        if opname == "scf.if":
            return self.run_if(function, env, results, rest)
        if opname == "scf.while":
            return self.run_while(function, env, results, rest)
        if opname in ("return", "func.return"):
            values = []
            if rest:
                names = rest.rsplit(":", 1)[0]
                values = [self.lookup(env, n) for n in split_top(names)]
            return None, None, values
        if opname == "cf.br":
            block, values = self.branch_target(function, rest, env)
            return block, values, None
        if opname == "cf.cond_br":
            if any(isinstance(t, TensorType) for t in
                   [t for _, t in function.args] + function.results):
                # Lifted to scf (a loop's exit test or an scf.if): the
                # walk counts the larger way (see ran_if).
                self.ran_if = True
            cond_name, targets = rest.split(",", 1)
            first, second = split_top(targets)
            taken = first if self.lookup(env, cond_name) else second
            block, values = self.branch_target(function, taken, env)
            return block, values, None
        if opname in ("call", "func.call"):
            m = re.match(r"@([\w.]+)\((.*?)\)\s*:", rest)
            names = split_top(m.group(2))
            values = self.call(m.group(1), [self.lookup(env, n) for n in names])
            self.define(env, results, values)
            return None
        dialect, _, op = opname.partition(".")
        if opname.startswith("tensor.") and opname in TENSOR_OPS:
            self.define(env, results, [TENSOR_OPS[opname](self, env, rest)])
            return None
        if self.tensor_elementwise(env, results, opname, rest):
            return None
        if opname == "arith.constant":
            self.define(env, results, [self.constant(rest)])
            self.constants.update(results)
        elif opname == "arith.cmpi":
            predicate, a, b_type = rest.split(",", 2)
            b, type_name = b_type.rsplit(":", 1)
            width = INT_WIDTHS[type_name.strip()]
            value = compare(predicate.strip(), self.lookup(env, a),
                            self.lookup(env, b), width)
            self.define(env, results, [int(value)])
        elif opname == "arith.select":
            operands, _ = rest.rsplit(":", 1)
            c, a, b = (self.lookup(env, n) for n in split_top(operands))
            self.define(env, results, [a if c else b])
        elif opname in ("arith.extsi", "arith.extui", "arith.trunci",
                        "arith.index_cast", "arith.index_castui"):
            m = re.fullmatch(r"(%[\w#]+)\s*:\s*(\w+)\s+to\s+(\w+)", rest)
            value = self.lookup(env, m.group(1))
            src = INT_WIDTHS[m.group(2)]
            if op in ("extui", "index_castui"):
                value = to_unsigned(value, src)
            else:
                value = to_signed(value, src)
            self.define(env, results, [scalar_value(value, m.group(3))])
        elif opname in TENSOR_UNARY or opname in BODY_UNARY or opname == "math.erf":
            m = re.fullmatch(r"(%[\w#]+)\s*:\s*(.*)", rest)
            a = self.lookup(env, m.group(1))
            if not isinstance(parse_type(m.group(2)), TensorType):
                raise EvaluationError(f"scalar {opname} is not supported")
            defined_operands(opname, a)
            f = TENSOR_UNARY.get(opname) or BODY_UNARY.get(opname) or _erf
            with np.errstate(all="ignore"):
                self.define(env, results, [Tensor(np.asarray(f(a.array)).astype(a.array.dtype))])
        elif dialect == "arith":
            operands, type_text = rest.rsplit(":", 1)
            a, b = (self.lookup(env, n) for n in split_top(operands))
            type_ = parse_type(type_text)
            if isinstance(type_, TensorType):
                self.define(env, results, [tensor_binary(op, a, b)])
            else:
                width = INT_WIDTHS.get(type_)
                if width is None:
                    raise EvaluationError(f"scalar {type_} arithmetic is not supported")
                value = scalar_op(op, a, b, width)
                self.define(env, results, [scalar_value(value, type_)])
        elif opname == "tensor.empty":
            m = re.fullmatch(r"\((.*)\)\s*:\s*(.*)", rest)
            dims = [self.lookup(env, n) for n in split_top(m.group(1))]
            type_ = parse_type(m.group(2))
            shape, dims = [], list(dims)
            for d in type_.shape:
                shape.append(dims.pop(0) if d is None else d)
            array = np.zeros(shape, dtype=NUMPY_DTYPES[type_.element])
            self.define(env, results, [Tensor(array, defined=False)])
        elif opname == "tensor.dim":
            m = re.fullmatch(r"(%[\w#]+)\s*,\s*(%[\w#]+)\s*:.*", rest)
            tensor = self.lookup(env, m.group(1))
            self.define(env, results, [tensor.array.shape[self.lookup(env, m.group(2))]])
        elif opname == "linalg.fill":
            m = re.fullmatch(r"ins\((%[\w#]+)\s*:\s*(\w+)\)\s*outs\((%[\w#]+)\s*:.*\)\s*->.*", rest)
            value = self.lookup(env, m.group(1))
            out = self.lookup(env, m.group(3))
            if m.group(2) in INT_WIDTHS:
                value = to_signed(value, INT_WIDTHS[m.group(2)])
            array = np.full(out.array.shape, value, dtype=out.array.dtype)
            self.define(env, results, [Tensor(array)])
        elif opname == "tensor.extract":
            m = re.fullmatch(r"(%[\w#]+)\[(.*)\]\s*:\s*(.*)", rest)
            tensor = self.lookup(env, m.group(1))
            defined_operands(opname, tensor)
            index = tuple(self.lookup(env, n) for n in split_top(m.group(2)))
            if any(not 0 <= i < d for i, d in zip(index, tensor.array.shape)):
                raise EvaluationError(f"index {index} out of bounds of {tensor.array.shape}")
            element = parse_type(m.group(3)).element
            value = tensor.array[index].item()
            self.define(env, results, [float(value) if element in FLOAT_ELEMENTS
                                       else scalar_value(int(value), element)])
        elif opname in ("linalg.matmul", "linalg.transpose"):
            m = re.fullmatch(r"ins\((.*?)\s*:.*?\)\s*outs\((%[\w#]+)\s*:.*?\)(.*)", rest)
            ins = [self.lookup(env, n) for n in split_top(m.group(1))]
            out = self.lookup(env, m.group(2))
            if opname == "linalg.matmul":
                defined_operands(opname, *ins, out)
                with np.errstate(over="ignore", invalid="ignore"):
                    array = out.array + np.matmul(ins[0].array, ins[1].array)
            else:
                defined_operands(opname, *ins)
                perm = re.search(r"permutation\s*=\s*\[(.*?)\]", m.group(3))
                array = np.transpose(ins[0].array, [int(p) for p in perm.group(1).split(",")])
            if array.shape != out.array.shape:
                raise EvaluationError(f"result shape {array.shape} differs from outs "
                                      f"{out.array.shape}")
            self.define(env, results, [Tensor(array.astype(out.array.dtype))])
        elif opname in ("linalg.generic", "linalg.reduce", "linalg.map"):
            names, out_name = parse_ins_outs(rest)
            ins = [self.lookup(env, n) for n in names]
            out = self.lookup(env, out_name)
            defined_operands(opname, *ins)
            body = rest.regions[0]
            if len(rest.block_args) != len(ins) + 1:
                raise EvaluationError(f"a body of {len(rest.block_args)} arguments for "
                                      f"{len(ins)} inputs and one output")
            acc_name = rest.block_args[-1]
            if any(re.search(re.escape(acc_name) + r"\b", r) for _, _, r, _ in body):
                defined_operands(f"{opname} (its body reads outs)", out)
            if opname == "linalg.generic":
                maps, iterators = parse_maps(rest)
            elif opname == "linalg.map":
                rank = out.array.ndim
                maps, iterators = [list(range(rank))] * (len(ins) + 1), ["parallel"] * rank
            else:
                dims = [int(d) for d in
                        re.search(r"dimensions\s*=\s*\[(.*?)\]", rest).group(1).split(",")]
                rank = ins[0].array.ndim
                iterators = ["reduction" if d in dims else "parallel" for d in range(rank)]
                maps = [list(range(rank))] * len(ins) + [[d for d in range(rank) if d not in dims]]
            if len(maps) != len(ins) + 1:
                raise EvaluationError(f"{len(maps)} indexing maps for {len(ins) + 1} operands")
            array = run_generic(maps, iterators, [t.array for t in ins], out.array, body,
                                rest.block_args, lambda name: self.lookup(env, name))
            if array.shape != out.array.shape:
                raise EvaluationError(f"result shape {array.shape} differs from outs "
                                      f"{out.array.shape}")
            self.define(env, results, [Tensor(array.astype(out.array.dtype))])
        elif opname in LINALG_NAMED:
            names, out_name = parse_ins_outs(rest)
            ins = [self.lookup(env, n) for n in names]
            out = self.lookup(env, out_name)
            pooling = opname.startswith("linalg.pooling")
            defined_operands(opname, *(ins[:1] if pooling else ins))
            if opname in READS_OUTS:
                defined_operands(f"{opname} (accumulates into outs)", out)
            with np.errstate(all="ignore"):
                array = np.asarray(linalg_named(opname, rest, ins, out))
            if array.shape != out.array.shape:
                raise EvaluationError(f"result shape {array.shape} differs from outs "
                                      f"{out.array.shape}")
            self.define(env, results, [Tensor(array.astype(out.array.dtype))])
        elif opname in ("tensor.collapse_shape", "tensor.expand_shape"):
            m = re.fullmatch(r"(%[\w#]+)\s*\[(\[.*?\])\](.*?):\s*(.*?)\s+into\s+(.*)", rest)
            if not m:
                raise EvaluationError(f"cannot parse {opname} {rest}")
            source = self.lookup(env, m.group(1))
            defined_operands(opname, source)
            groups = [[int(d) for d in g.split(",")] for g in re.findall(r"\[([\d,\s]*)\]", m.group(2))]
            type_ = parse_type(m.group(5))
            array = source.array
            if opname == "tensor.collapse_shape":
                shape = [int(np.prod([array.shape[d] for d in g], dtype=np.int64)) for g in groups]
            else:
                sizes = re.search(r"output_shape\s*\[(.*?)\]", m.group(3)).group(1)
                shape = [self.lookup(env, d) if d.startswith("%") else int(d)
                         for d in split_top(sizes)]
                for k, g in enumerate(groups):
                    if int(np.prod([shape[d] for d in g], dtype=np.int64)) != array.shape[k]:
                        raise EvaluationError(f"group {k} of {opname} does not multiply to "
                                              f"{array.shape[k]}")
            if any(t is not None and t != d for t, d in zip(type_.shape, shape)):
                raise EvaluationError(f"{opname}: shape {shape} is not {m.group(5)}")
            self.define(env, results, [Tensor(array.reshape(shape).copy())])
        else:
            raise EvaluationError(f"unsupported op {opname}")
        return None

    def tensor_elementwise(self, env, results, opname, rest):
        """cmpi / cmpf / select / casts on tensors (scalars elsewhere):
        whether `opname` was one."""
        if opname in ("arith.cmpi", "arith.cmpf"):
            predicate, a, b_type = rest.split(",", 2)
            b, type_text = b_type.rsplit(":", 1)
            type_ = parse_type(type_text)
            if not isinstance(type_, TensorType):
                return False
            x = _tensor(self, env, a, opname).array
            y = _tensor(self, env, b, opname).array
            p = predicate.strip()
            if opname == "arith.cmpf":
                out = CMPF[p](x, y)
            elif p[0] == "u":
                out = TENSOR_CMPI["s" + p[1:]](_unsigned(x), _unsigned(y))
            else:
                out = TENSOR_CMPI[p](x, y)
            self.define(env, results, [Tensor(np.asarray(out, dtype=np.bool_))])
            return True
        if opname == "arith.select":
            operands, type_text = rest.split(":", 1)
            if "tensor<" not in type_text:
                return False
            c, a, b = (_tensor(self, env, n, opname) for n in split_top(operands))
            out = Tensor(np.where(c.array, a.array, b.array).astype(a.array.dtype))
            self.define(env, results, [out])
            return True
        if opname in ("arith.extf", "arith.truncf", "arith.extui", "arith.extsi",
                      "arith.trunci"):
            m = re.fullmatch(r"(%[\w#]+)\s*:\s*(tensor<.*?>)\s+to\s+(tensor<.*>)", rest.strip())
            if not m:
                return False
            x = _tensor(self, env, m.group(1), opname).array
            dst = parse_type(m.group(3))
            if opname == "arith.extui":
                x = x.astype(np.uint64) if x.dtype == np.bool_ else _unsigned(x)
            elif opname == "arith.extsi" and x.dtype == np.bool_:
                x = -x.astype(np.int64)
            with np.errstate(over="ignore"):
                out = x.astype(NUMPY_DTYPES[dst.element])
            self.define(env, results, [Tensor(out)])
            return True
        return False

    def track(self, env, results, opname, rest):
        """Marks the results of an op inexact where the op is (INEXACT_OPS,
        or a linalg body with one) or reads an inexact value; rounds a bf16
        result (computed in float32) to bf16."""
        if re.search(r"(xbf16>|tensor<bf16>|:\s*bf16)\s*$", str(rest)) and opname not in ("scf.for", "scf.while"):
            for r in results:
                base = r.split(":")[0]
                value = env.get(base)
                if isinstance(value, Tensor) and value.array.dtype == np.float32:
                    value.array = round_bf16(value.array)
                elif isinstance(value, float):
                    env[base] = float(round_bf16(np.float32(value)))
        inexact = opname in INEXACT_OPS or (
            opname.startswith("linalg.") and has_inexact_op(rest))
        if not inexact:
            for name in re.findall(r"%[\w#]+", str(rest)):
                if name in self.inexact_scalars:
                    inexact = True
                    break
                try:
                    value = self.lookup(env, name)
                except (EvaluationError, KeyError, IndexError, TypeError, ValueError):
                    continue
                if isinstance(value, Tensor) and value.inexact:
                    inexact = True
                    break
        if not inexact:
            return
        for r in results:
            base = r.split(":")[0]
            value = env.get(base)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, Tensor):
                    v.inexact = True
                elif isinstance(v, float):
                    self.inexact_scalars.add(r)

    def constant(self, rest):
        if rest in ("true", "false"):
            return int(rest == "true")
        value_text, type_text = rest.rsplit(":", 1)
        value_text, type_ = value_text.strip(), parse_type(type_text)
        if isinstance(type_, TensorType):
            m = re.fullmatch(r"dense<(.*)>", value_text)
            if not m or None in type_.shape:
                raise EvaluationError(f"only static splat tensor constants: {rest}")
            dtype = NUMPY_DTYPES[type_.element]
            text_ = m.group(1).strip()
            if text_ in ("true", "false"):
                scalar = text_ == "true"
            else:
                scalar = float(text_) if type_.element in FLOAT_ELEMENTS else int(text_)
            return Tensor(np.full(type_.shape, scalar, dtype=dtype))
        if value_text in ("true", "false"):
            return int(value_text == "true")
        if type_ in INT_WIDTHS:
            return scalar_value(int(value_text), type_)
        return float(value_text)


def evaluate(text, function, inputs, notes=None):
    """Results of `function` of the program `text` on `inputs` (NumPy
    arrays; a 0-d array for a scalar argument): a list of NumPy arrays (a
    scalar result as a 0-d array of its type). With `notes` (a dict), sets
    notes["zero_trip_dynamic"]: whether some scf.for whose bounds are not
    both constants, or some scf.while, ran no iteration, and
    notes["ran_if"]: whether some scf.if (or cf.cond_br of a function with
    tensors) ran."""
    functions = parse_module(text)
    evaluator = Evaluator(functions)
    if notes is not None:
        notes["zero_trip_dynamic"] = False
    if function not in functions:
        raise EvaluationError(f"no function @{function}")
    args = []
    for (_, type_), x in zip(functions[function].args, inputs):
        x = np.asarray(x)
        if isinstance(type_, TensorType):
            args.append(Tensor(from_bf16_bits(x) if type_.element == "bf16" else x))
        elif type_ == "bf16":
            args.append(float(from_bf16_bits(x)))
        elif type_.startswith("f"):
            args.append(float(x))
        else:
            args.append(scalar_value(int(x), type_))
    results = evaluator.call(function, args)
    if notes is not None:
        notes["zero_trip_dynamic"] = evaluator.zero_trip_dynamic
        notes["ran_if"] = evaluator.ran_if
        notes["inexact"] = [r.inexact if isinstance(r, Tensor) else bool(evaluator.inexact_scalars)
                            for r in results]
        notes["result_elements"] = [t.element if isinstance(t, TensorType) else t
                                    for t in functions[function].results]
    arrays = []
    for i, (result, type_) in enumerate(zip(results, functions[function].results)):
        if not isinstance(result, Tensor):
            if type_ == "bf16":
                arrays.append(bf16_bits(np.array(result, dtype=np.float32)))
                continue
            dtype = {"i1": np.bool_, "index": np.int64}.get(type_) or NUMPY_DTYPES[type_]
            arrays.append(np.array(result, dtype=dtype))
            continue
        if not result.defined:
            raise EvaluationError(f"result {i} is a tensor.empty's undefined contents")
        arrays.append(bf16_bits(result.array) if type_.element == "bf16" else result.array)
    return arrays


def format_tensor(array):
    """ferry-run's text format, e.g. `2x3xi32=[1 2 3][4 5 6]`."""
    element = ELEMENT_OF[array.dtype.type]
    shape = "x".join(str(d) for d in array.shape)

    def rows(a):
        if a.ndim == 0:
            return str(a.item())
        if a.ndim == 1:
            return "[" + " ".join(f"{x:g}" if element in FLOAT_ELEMENTS else str(int(x))
                                  for x in a.tolist()) + "]"
        if a.ndim == 2:
            return "".join(rows(x) for x in a)
        return "".join("[" + rows(x) + "]" for x in a)  # as ferry-run nests them
    return f"{shape + 'x' if shape else ''}{element}={rows(array)}"


def parse_input(text):
    """An input as ferry-run takes it: `2x3xi32=1,2,3,4,5,6` or `@x.npy`."""
    if text.startswith("@"):
        return np.load(text[1:])
    type_text, values = text.split("=", 1)
    *dims, element = type_text.split("x")
    if element in ("i1", "index") and not dims:
        return np.array(int(values), dtype=np.int64)  # a scalar argument
    dtype = NUMPY_DTYPES[element]
    cast = float if element.startswith("f") else int
    return np.array([cast(v) for v in values.split(",")], dtype=dtype).reshape(
        [int(d) for d in dims])


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("program")
    parser.add_argument("--function", default="main")
    parser.add_argument("--input", action="append", default=[],
                        help="SHAPExTYPE=v0,v1,... or @PATH.npy, as ferry-run takes "
                             "them (repeatable)")
    args = parser.parse_args(argv)
    with open(args.program) as f:
        text = f.read()
    inputs = [parse_input(i) for i in args.input]
    try:
        results = evaluate(text, args.function, inputs)
    except EvaluationError as e:
        sys.exit(f"reference.py: error: {e}")
    for array in results:
        print(format_tensor(array))


if __name__ == "__main__":
    main(sys.argv[1:])
