"""Random Ferry input programs, from a seed and a set of features.

    python3 generate.py SEED [--features=+name,-name] [-o PROGRAM.mlir]

prints (or writes) the program and names its inputs' shapes and types on
stderr. A program is a module of upstream MLIR that Ferry accepts today
(docs/ARCHITECTURE.md, "The path of a program"):

- scalar functions (no tensors) over i1/i8/i16/i32/i64 with `cf` control
  flow: if/else joins through block arguments, counted loops, early returns,
  bounded self-recursion, calls to the scalar functions before them; every
  op is defined for every input (shift amounts and divisors are masked into
  range first), and every loop and recursion is bounded;
- tensor functions (one block, but for cf_tensor_blocks): elementwise `arith.{add,sub,mul}{i,f}` on
  i8/i16/i32/i64/f32/f64, splat constants, `tensor.empty` + `linalg.fill`
  (with values the scalar functions compute), fills into existing values,
  tied calls to the seed plugin's in-place `Double.function` /
  `Triple.function` (samples/custom_module), calls to the tensor functions
  before them; static or dynamic shapes; `scf.for` carrying tensors (and a
  scalar) over 0..4 iterations, `scf.if` choosing between tensors and
  `scf.while` carrying tensors and a counter (at most 4 iterations),
  nested two deep (tensor_regions, while_loops: each region a scope of
  its own); in @main, some loops and branches written as `cf` blocks
  instead (cf_tensor_blocks, cf_gen.py);
- one public `@main` taking tensors and returning tensors, on one device or
  two (`hal.device.global @a`, `@b`) with ops, functions and arguments
  placed by `stream.affinity`, and links the compiler decides or leaves to
  run time (`#hal.runtime`);
- i1 / f16 / bf16 tensors, tensor.pad / concat / from_elements / splat /
  bitcast / cast / extract, extract_slice / insert_slice (in loops too),
  and now and then a whole @main of tiles (tensor_gen.py).

Every choice comes from `random.Random(seed)`, so a seed and a feature set
name one program. FEATURES lists what can be switched; README.md says which
are off in CI and why.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalg_gen import LinalgSteps  # noqa: E402
from tensor_gen import TensorSteps, tile_program  # noqa: E402
from cf_gen import CfBlockSteps  # noqa: E402
from program_values import TENSOR_DTYPES, WIDTH, Storage, TensorValue  # noqa: E402,F401
from region_gen import RegionSteps  # noqa: E402

# name -> (on by default, what it adds). Keep README.md's table in step.
FEATURES = {
    "one_device": (True, "programs on the one implicit device"),
    "two_devices": (True, "two devices, ops placed with stream.affinity"),
    "runtime_links": (True, "two devices whose links are left to run time (#hal.runtime)"),
    "boundary_affinity": (True, "stream.affinity on function arguments and results"),
    "scalar_control_flow": (True, "scalar functions with branches and loops"),
    "scalar_recursion": (True, "bounded self-recursive scalar functions"),
    "fills": (True, "tensor.empty + linalg.fill"),
    "fill_existing": (True, "linalg.fill into a value that is used again (copy-on-write)"),
    "external_calls": (True, "tied calls to Double.function / Triple.function"),
    "external_same_operand": (True, "an external call given one value as input and tied output"),
    "plugin_may_alias": (True, "compile with --module (FERRY_PLUGIN_TIED_MAY_ALIAS)"),
    "module_calls": (True, "calls between tensor functions of the module"),
    "dynamic_shapes": (True, "tensors of dynamic shape (tensor<?x3xi32>)"),
    # Issue 12, fixed:
    "write_into_escaping": (True, "a fill or tied call writes into storage that is also "
                                  "returned or passed to a module function"),
    "external_side_effects": (True, "external declarations without nosideeffects (release + "
                                    "dealloca if after the call)"),
    "write_into_reused_outside_storage": (True, "a fill or tied call writes into storage an "
                                                "elementwise op took over from an argument or a "
                                                "module function's result"),
    "may_alias_external_input": (True, "with plugin_may_alias, an external call whose input's "
                                       "storage is external (an argument, a module function's "
                                       "result, passed to one, or written into one)"),
    "foldable_branches": (True, "branch conditions the canonicalizer may fold, leaving a loop "
                                "unreachable (hung MLIR 22's canonicalizer)"),
    "unplaced_functions": (True, "two-device programs with functions without a stream.affinity"),
    "two_device_module_calls": (True, "module calls in two-device programs"),
    # Known to fail today: off by default. README.md has a reproducer each.
    "argument_to_external": (True, "a function argument handed straight to an external function"),
    "runtime_links_module_calls": (True, "module calls in programs whose links are left to run time"),
    # Issue 14 and 15.
    "scalar_arguments": (True, "@main takes scalar arguments (fill values) after its tensors"),
    "host_reads": (True, "tensor.extract of one element: a fill value or a scalar result"),
    "native_ops": (True, "elementwise ops compiled to native kernels (bit ops, min/max, "
                         "negf, absf) and, on square shapes, linalg.matmul / transpose"),
    "tensor_regions": (True, "scf.for carrying tensors (and a scalar) and scf.if choosing "
                             "between tensors, nested, in tensor functions"),
    "two_device_regions": (True, "with tensor_regions, regions in two-device programs"),
    "dynamic_regions": (True, "with tensor_regions, regions in programs of dynamic shape"),
    "while_loops": (True, "with tensor_regions, scf.while carrying tensors and a counter (a "
                          "bound of 0..4 iterations, maybe an element read back)"),
    "if_in_loop": (True, "with tensor_regions, scf.if inside a loop body (the compiler may "
                          "not know who owns its result: the walk gives no peak)"),
    # Issue 14: linalg ops of other shapes (linalg_gen.py).
    "linalg_generic": (True, "linalg.generic: projected-permutation maps, parallel and reduction "
                             "loops, a body of arith ops"),
    "math_ops": (True, "math functions (exp, log, tanh, erf, sin, ...) and divf in bodies and "
                       "on tensors (compared within the inexact tolerance)"),
    "linalg_named": (True, "linalg.reduce, broadcast, map, copy, softmax, matmul of any shape, "
                           "batch_matmul, matvec, vecmat, dot"),
    "linalg_conv": (True, "conv_2d_nhwc_hwcf, conv_2d_nchw_fchw, depthwise_conv_2d_nhwc_hwc, "
                          "pooling_nhwc_max/sum with strides and dilations"),
    "reshapes": (True, "tensor.collapse_shape / expand_shape of any value"),
    "fusion_chains": (True, "elementwise ops feeding a contraction or reduction and consuming it"),
    "identity_generic": (True, "with linalg_generic, elementwise generics whose maps are all one "
                                "permutation and whose body may fold to yielding an argument "
                                "(Ferry's dispatch writes nothing)"),
    "linalg_dynamic_two_devices": (True, "with linalg_dynamic, linalg steps in two-device "
                                          "programs of dynamic shape (ferry-compile crashes "
                                          "importing them now and then)"),
    "linalg_dynamic": (True, "the linalg steps in programs of dynamic shape"),
    "gathers": (True, "a generic reading another element of its input (tensor.extract at "
                      "indices from linalg.index in the body)"),
    "scalar_captures": (True, "with linalg_generic, a body reads a scalar of the function from "
                              "outside it (a 0-d tensor input of the dispatch)"),
    "indeterminate_carried": (True, "with tensor_regions, loops and ifs whose carried values "
                                    "or results may be arguments, constants, captured values "
                                    "or values used again (reference counting carries an owned "
                                    "flag beside such a position)"),
    # Issues 14 and 15: tensor ops, element types, slices (tensor_gen.py).
    "types_half": (True, "f16 and bf16 tensors: truncf from f32, elementwise ops, extf back, "
                         "arguments and results (bf16 as <u2 bits)"),
    "types_i1": (True, "i1 masks: cmpi / cmpf on tensors, andi / ori / xori, select, extui; "
                       "arguments and results (|b1)"),
    "tensor_pad": (True, "tensor.pad of static dims with a constant or scalar value, its low "
                         "padding a known index now and then (contiguous source)"),
    "tensor_concat": (True, "tensor.concat along a static dim (with a dynamic operand, only "
                            "after dims of static size 1)"),
    "tensor_from_elements": (True, "tensor.from_elements of scalars"),
    "tensor_splat": (True, "tensor.splat of a scalar, static and dynamic shapes"),
    "tensor_cast": (True, "tensor.bitcast float -> integer of its width, tensor.cast dynamic -> "
                          "static"),
    "tensor_extract": (True, "tensor.extract of one element of any value (host read)"),
    "slices": (True, "tensor.extract_slice (rank-reducing too) and insert_slice of tiles into "
                     "a fill"),
    "dynamic_slices": (True, "with slices, offsets computed at run time (clamped) and dynamic "
                             "sizes (cast to static)"),
    "scalar_slice_sizes": (True, "with dynamic_slices, slice sizes and pad lows computed from "
                                 "an integer scalar argument of @main (the walk is given its "
                                 "value)"),
    "strided_dynamic_tiles": (True, "with slices, strided (copy-kernel) slices with dynamic tile "
                                    "dims and no static dim cut"),
    "tile_programs": (True, "now and then a whole @main of tiles: input rows read in place by "
                            "dispatches, tiles inserted into one buffer, straight and in an "
                            "scf.for; checks copies == 0"),
    "two_device_region_tensor_ops": (True, "the tensor_gen.py steps inside regions of two-device "
                                           "programs"),
    "strided_slices": (True, "with slices, stride 2"),
    "dynamic_strides": (True, "with slices, strided (copy-kernel) slices whose strides and "
                              "offsets are computed at run time from an integer scalar "
                              "argument of @main"),
    "loop_insert_slice": (True, "scf.for inserting tiles into the tensor it carries"),
    "cf_tensor_blocks": (True, "with tensor_regions, some loops and branches of @main written "
                                "as cf blocks carrying tensors (lifted to scf by the import)"),
}

# Scalar types @main may take (ferry-run reads them as --input=TYPE=V or a
# 0-d .npy; i1 has no NumPy dtype here).
MAIN_SCALAR_TYPES = ["i8", "i16", "i32", "i64", "f32", "f64"]

SCALAR_TYPES = ["i1", "i8", "i16", "i32", "i64"]
EXTERNALS = ["Double.function", "Triple.function"]


def parse_features(spec):
    """`+a,-b,all,none` applied to the defaults, in order: a set of names."""
    enabled = {n for n, (on, _) in FEATURES.items() if on}
    for item in filter(None, (s.strip() for s in (spec or "").split(","))):
        if item == "all":
            enabled = set(FEATURES)
            continue
        if item == "none":
            enabled = set()
            continue
        on = not item.startswith("-")
        name = item.lstrip("+-")
        if name not in FEATURES:
            raise ValueError(f"unknown feature '{name}' (known: {', '.join(FEATURES)})")
        (enabled.add if on else enabled.discard)(name)
    return enabled


def affinity_attr(device):
    return f"{{stream.affinity = #hal.device.affinity<@{device}>}}"


class Program:
    """What the runner needs besides the text."""

    def __init__(self):
        self.text = ""
        self.inputs = []          # [(shape list, dtype)]
        self.devices = []         # [] for the implicit device, else ["a", "b"]
        self.runtime_links = False
        self.compile_with_plugin = False
        self.dynamic = False
        self.expected_copies = None  # every device's `copies`, where predictable


# --- Scalar functions ------------------------------------------------------

class ScalarFunction:
    def __init__(self, name, params, results, recursive):
        self.name = name
        self.params = params      # [type]
        self.results = results    # [type]
        self.recursive = recursive  # param 0 must be in [0, 8)
        self.lines = []


class Body:
    """Emits ops into blocks; names values; keeps a scope of usable scalars."""

    def __init__(self, gen):
        self.gen = gen
        self.rng = gen.rng
        self.lines = []

    def emit(self, text):
        self.lines.append("    " + text)

    def label(self, label, args):
        if args:
            spelled = ", ".join(f"{n}: {t}" for n, t in args)
            self.lines.append(f"  ^{label}({spelled}):")
        else:
            self.lines.append(f"  ^{label}:")

    def constant(self, type_, value=None):
        name = self.gen.fresh("c")
        if type_ == "i1":
            value = self.rng.random() < 0.5 if value is None else bool(value)
            self.emit(f"{name} = arith.constant {'true' if value else 'false'}")
        else:
            if value is None:
                value = self.gen.random_int(type_)
            self.emit(f"{name} = arith.constant {value} : {type_}")
        return name

    def cast(self, value, src, dst):
        """`value` of type `src` as type `dst`."""
        if src == dst:
            return value
        name = self.gen.fresh("v")
        if WIDTH[src] < WIDTH[dst]:
            op = self.rng.choice(["extsi", "extui"])
        else:
            op = "trunci"
        self.emit(f"{name} = arith.{op} {value} : {src} to {dst}")
        return name

    def binary(self, scope, type_):
        """A new scalar of `type_` from two in scope (or constants)."""
        a = self.operand(scope, type_)
        b = self.operand(scope, type_)
        ops = ["addi", "subi", "muli", "andi", "ori", "xori", "minsi", "maxsi",
               "minui", "maxui", "shli", "shrsi", "shrui"]
        if type_ != "i1":
            ops += ["divsi", "divui", "remsi", "remui", "ceildivsi", "floordivsi"]
        op = self.rng.choice(ops)
        width = WIDTH[type_]
        if op.startswith("sh"):
            # Shifting by the width or more is poison: mask the amount.
            mask = self.constant(type_, width - 1 if width > 1 else 0)
            masked = self.gen.fresh("v")
            self.emit(f"{masked} = arith.andi {b}, {mask} : {type_}")
            b = masked
        elif "div" in op or "rem" in op:
            # A divisor in [1, 2^(w-2)]: never zero, never -1.
            mask = self.constant(type_, (1 << (width - 2)) - 1)
            one = self.constant(type_, 1)
            masked, divisor = self.gen.fresh("v"), self.gen.fresh("v")
            self.emit(f"{masked} = arith.andi {b}, {mask} : {type_}")
            self.emit(f"{divisor} = arith.ori {masked}, {one} : {type_}")
            b = divisor
        name = self.gen.fresh("v")
        self.emit(f"{name} = arith.{op} {a}, {b} : {type_}")
        return name

    def operand(self, scope, type_):
        """A scalar of `type_`: preferably a recent one in scope (so that
        results depend on the control flow before them)."""
        same = [n for n, t in scope if t == type_]
        if same and self.rng.random() < 0.8:
            return self.rng.choice(same[-3:] if self.rng.random() < 0.6 else same)
        if scope and self.rng.random() < 0.7:
            n, t = self.rng.choice(scope[-4:] if self.rng.random() < 0.6 else scope)
            return self.cast(n, t, type_)
        return self.constant(type_)

    def compare(self, scope):
        type_ = self.rng.choice(SCALAR_TYPES)
        a, b = self.operand(scope, type_), self.operand(scope, type_)
        predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge",
                                     "ult", "ule", "ugt", "uge"])
        name = self.gen.fresh("cmp")
        self.emit(f"{name} = arith.cmpi {predicate}, {a}, {b} : {type_}")
        return name

    def bounded(self, scope, type_, limit):
        """A value of `type_` in [0, limit) (limit a power of two)."""
        value = self.operand(scope, type_)
        mask = self.constant(type_, limit - 1)
        name = self.gen.fresh("v")
        self.emit(f"{name} = arith.andi {value}, {mask} : {type_}")
        return name

    def call_scalar(self, scope, callee):
        args = []
        for i, type_ in enumerate(callee.params):
            if i == 0 and callee.recursive:
                args.append(self.bounded(scope, type_, 8))
            else:
                args.append(self.operand(scope, type_))
        results = [self.gen.fresh("r") for _ in callee.results]
        arg_types = ", ".join(callee.params)
        result_types = ", ".join(callee.results)
        if len(callee.results) > 1:
            result_types = f"({result_types})"
        self.emit(f"{', '.join(results)} = call @{callee.name}({', '.join(args)}) "
                  f": ({arg_types}) -> {result_types}")
        return list(zip(results, callee.results))


class ScalarFunctionBuilder(Body):
    """One scalar function: structured statements lowered to cf blocks."""

    def __init__(self, gen, function, callees):
        super().__init__(gen)
        self.function = function
        self.callees = callees
        self.control_flow = "scalar_control_flow" in gen.features

    def new_label(self):
        return self.gen.fresh("bb")[1:]  # without '%'

    def build(self):
        f = self.function
        params = [(self.gen.fresh("arg"), t) for t in f.params]
        self.params = params
        self.conditions = set()  # (parameter, constant) of branch_condition
        scope = list(params)
        if f.recursive:
            self.build_recursive(scope)
        else:
            scope = self.statements(scope, depth=0, count=self.rng.randint(2, 6))
            self.ret(scope)
        header_args = ", ".join(f"{n}: {t}" for n, t in params)
        result_types = ", ".join(f.results)
        if len(f.results) > 1:
            result_types = f"({result_types})"
        f.lines = ([f"  func.func private @{f.name}({header_args}) -> {result_types} {{"]
                   + self.lines + ["  }"])

    def ret(self, scope):
        values = [self.operand(scope, t) for t in self.function.results]
        self.emit(f"return {', '.join(values)} : {', '.join(self.function.results)}")

    def build_recursive(self, scope):
        # f(n, ...) with n in [0, 8): the base case for n <= 0, else a call
        # f(n - 1, ...) and more work on its results.
        n, n_type = scope[0]
        zero = self.constant(n_type, 0)
        stop = self.gen.fresh("cmp")
        self.emit(f"{stop} = arith.cmpi sle, {n}, {zero} : {n_type}")
        base, recurse = self.new_label(), self.new_label()
        self.emit(f"cf.cond_br {stop}, ^{base}, ^{recurse}")
        self.label(base, [])
        base_scope = self.statements(list(scope), depth=1, count=self.rng.randint(1, 3))
        self.ret(base_scope)
        self.label(recurse, [])
        one = self.constant(n_type, 1)
        smaller = self.gen.fresh("v")
        self.emit(f"{smaller} = arith.subi {n}, {one} : {n_type}")
        args = [smaller] + [self.operand(scope, t) for t in self.function.params[1:]]
        results = [self.gen.fresh("r") for _ in self.function.results]
        result_types = ", ".join(self.function.results)
        if len(results) > 1:
            result_types = f"({result_types})"
        self.emit(f"{', '.join(results)} = call @{self.function.name}({', '.join(args)}) "
                  f": ({', '.join(self.function.params)}) -> {result_types}")
        scope = scope + list(zip(results, self.function.results))
        scope = self.statements(scope, depth=1, count=self.rng.randint(1, 3))
        self.ret(scope)

    def statements(self, scope, depth, count):
        """Emits `count` statements; returns the scope after them."""
        for _ in range(count):
            kinds = ["binary", "binary", "binary", "cast", "select"]
            if self.callees:
                kinds.append("call")
            if self.control_flow and depth < 2:
                kinds += ["if", "loop"]
                if depth == 0:
                    kinds.append("early_return")
            kind = self.rng.choice(kinds)
            if kind == "binary":
                type_ = self.rng.choice(SCALAR_TYPES)
                scope.append((self.binary(scope, type_), type_))
            elif kind == "cast":
                name, src = self.rng.choice(scope) if scope else (self.constant("i8"), "i8")
                dst = self.rng.choice(SCALAR_TYPES)
                scope.append((self.cast(name, src, dst), dst))
            elif kind == "select":
                cond = self.compare(scope)
                type_ = self.rng.choice(SCALAR_TYPES)
                a, b = self.operand(scope, type_), self.operand(scope, type_)
                name = self.gen.fresh("v")
                self.emit(f"{name} = arith.select {cond}, {a}, {b} : {type_}")
                scope.append((name, type_))
            elif kind == "call":
                scope += self.call_scalar(scope, self.rng.choice(self.callees))
            elif kind == "if":
                scope = self.if_else(scope, depth)
            elif kind == "loop":
                scope = self.loop(scope, depth)
            elif kind == "early_return":
                cond = self.branch_condition(scope)
                out, rest = self.new_label(), self.new_label()
                self.emit(f"cf.cond_br {cond}, ^{out}, ^{rest}")
                self.label(out, [])
                self.ret(self.statements(list(scope), depth + 1, self.rng.randint(0, 2)))
                self.label(rest, [])
        return scope

    def branch_condition(self, scope):
        """The condition of a cf.cond_br. Unless foldable_branches is on, one
        the canonicalizer cannot fold, so no branch (and no loop behind it)
        becomes unreachable at compile time (see FEATURES): a parameter
        (not an i1, which folds to itself or its negation) against a
        constant that bounds no predicate, a different even constant each
        time (so that no two conditions become one value, not even with
        `x <= c` rewritten to `x < c + 1`, which a dominating branch on it
        would decide)."""
        if "foldable_branches" in self.gen.features:
            return self.compare(scope)
        param, type_ = self.rng.choice([(n, t) for n, t in self.params if t != "i1"])
        value = self.rng.choice([c for c in range(2, 101, 2) if (param, c) not in self.conditions])
        self.conditions.add((param, value))
        predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge",
                                     "ult", "ule", "ugt", "uge"])
        name = self.gen.fresh("cmp")
        self.emit(f"{name} = arith.cmpi {predicate}, {param}, {self.constant(type_, value)} : {type_}")
        return name

    def if_else(self, scope, depth):
        # Both arms compute a value of one type; the join block receives it.
        type_ = self.rng.choice(SCALAR_TYPES)
        cond = self.branch_condition(scope)
        join = self.new_label()
        joined = self.gen.fresh("j")
        if self.rng.random() < 0.25:
            # Both edges straight to the join, with different operands.
            a, b = self.operand(scope, type_), self.operand(scope, type_)
            self.emit(f"cf.cond_br {cond}, ^{join}({a} : {type_}), ^{join}({b} : {type_})")
        else:
            then, other = self.new_label(), self.new_label()
            self.emit(f"cf.cond_br {cond}, ^{then}, ^{other}")
            for arm in (then, other):
                self.label(arm, [])
                arm_scope = self.statements(list(scope), depth + 1, self.rng.randint(0, 3))
                value = self.operand(arm_scope, type_)
                self.emit(f"cf.br ^{join}({value} : {type_})")
        self.label(join, [(joined, type_)])
        return scope + [(joined, type_)]

    def loop(self, scope, depth):
        # for (i = 0; i < bound; ++i) acc = f(acc, ...), bound in [0, 8).
        counter_type = self.rng.choice(["i8", "i16", "i32", "i64"])
        acc_type = self.rng.choice(SCALAR_TYPES)
        if self.rng.random() < 0.5:
            bound = self.constant(counter_type, self.rng.randint(0, 6))
        else:
            bound = self.bounded(scope, counter_type, 8)
        start = self.constant(counter_type, 0)
        acc0 = self.operand(scope, acc_type)
        header, body, exit_ = self.new_label(), self.new_label(), self.new_label()
        i, acc = self.gen.fresh("i"), self.gen.fresh("acc")
        self.emit(f"cf.br ^{header}({start}, {acc0} : {counter_type}, {acc_type})")
        self.label(header, [(i, counter_type), (acc, acc_type)])
        done = self.gen.fresh("cmp")
        self.emit(f"{done} = arith.cmpi sge, {i}, {bound} : {counter_type}")
        self.emit(f"cf.cond_br {done}, ^{exit_}, ^{body}")
        self.label(body, [])
        inner = self.statements(scope + [(i, counter_type), (acc, acc_type)],
                                depth + 1, self.rng.randint(1, 3))
        step = self.binary(inner + [(acc, acc_type)], acc_type)
        one = self.constant(counter_type, 1)
        next_i = self.gen.fresh("v")
        self.emit(f"{next_i} = arith.addi {i}, {one} : {counter_type}")
        self.emit(f"cf.br ^{header}({next_i}, {step} : {counter_type}, {acc_type})")
        self.label(exit_, [])
        return scope + [(i, counter_type), (acc, acc_type)]


# --- Tensor functions ------------------------------------------------------

class TensorFunction:
    def __init__(self, name):
        self.name = name
        self.params = []   # [dtype]
        self.scalar_params = []  # [type], after the tensors (@main only)
        self.extra_params = []  # [(shape, dtype)]: @main's tensors of other shapes
        self.results = []  # [dtype] of the tensor results
        self.lines = []


class TensorFunctionBuilder(TensorSteps, LinalgSteps, RegionSteps, CfBlockSteps, Body):
    def __init__(self, gen, function, callees, scalar_callees, is_main):
        super().__init__(gen)
        self.function = function
        self.callees = callees
        self.scalar_callees = scalar_callees
        self.is_main = is_main
        self.values = []
        self.scalars = []      # integer scalars usable for fills
        self.arguments = []    # @main's integer scalar arguments: [(name, type)]
        self.float_scalars = []  # float scalars usable for fills
        self.reads = []        # tensor.extract results: [(name, type)]
        self.dims = None
        self.features = gen.features
        self.depth = 0          # regions (scf.for / scf.if) around the next op
        self.frozen = []        # values from outside the innermost loop body
        self.indices = []       # induction variables in scope (index)
        self.side = []          # values of other shapes (linalg_gen.Side)
        self.extra_args = []    # @main's arguments of other shapes: (name, dtype, shape)

    def type_of(self, dtype):
        return f"tensor<{self.gen.shape_text}x{dtype}>"

    def emit(self, text):
        self.lines.append("    " + "  " * self.depth + text)

    def call_keyword(self):
        # Inside a region the short form does not parse.
        return "func.call" if self.depth else "call"

    def place(self):
        """An op's affinity attribute, or nothing."""
        if self.gen.devices and self.rng.random() < 0.4:
            return " " + affinity_attr(self.rng.choice(self.gen.devices))
        return ""

    def defined(self, dtype=None):
        """Values that hold something (not a tensor.empty), of `dtype`."""
        return [v for v in self.values if v.defined and (dtype is None or v.dtype == dtype)]

    def pick(self, candidates):
        # Prefer recent values: longer chains of dependent ops.
        if not candidates:
            return None
        if self.rng.random() < 0.6:
            return self.rng.choice(candidates[-3:])
        return self.rng.choice(candidates)

    def build(self, param_dtypes):
        f = self.function
        f.params = param_dtypes
        args = []
        for dtype in param_dtypes:
            value = TensorValue(self.gen.fresh("arg"), dtype, is_arg=True)
            value.exact = self.is_main
            args.append(value)
            self.values.append(value)
        scalar_args = []
        if self.is_main and "scalar_arguments" in self.features:
            for _ in range(self.rng.choice([0, 1, 1, 2])):
                type_ = self.rng.choice(MAIN_SCALAR_TYPES)
                name = self.gen.fresh("arg")
                scalar_args.append((name, type_))
                (self.float_scalars if type_.startswith("f") else self.scalars).append((name, type_))
                if not type_.startswith("f"):
                    self.arguments.append((name, type_))
            f.scalar_params = [t for _, t in scalar_args]
        count = self.rng.randint(3, 12) if self.is_main else self.rng.randint(2, 8)
        for _ in range(count):
            self.step()
        if self.is_main and "module_calls" in self.features:
            # Every function of the module runs.
            for callee in self.callees:
                if callee.name in self.gen.uncalled:
                    self.op_call(callee)
                    if self.rng.random() < 0.5:
                        self.step()
        results = self.choose_results()
        f.results = [v.dtype for v in results]
        names = [v.name for v in results]
        types = [self.type_of(v.dtype) for v in results]
        # The header's result types: a tensor's may carry an affinity.
        header_results = [None] * len(results)
        if self.is_main and self.side and self.rng.random() < 0.6:
            # A value of another shape (linalg_gen) among the results.
            side = self.rng.choice(self.side[-3:])
            at = self.rng.randint(0, len(names))
            names.insert(at, side.name)
            types.insert(at, self.shape_text(side.shape, side.dtype))
            header_results.insert(at, types[at])
        if self.is_main and self.reads:
            # Some elements read back on the host, among the tensors.
            for name, type_ in self.rng.sample(self.reads, self.rng.randint(0, min(2, len(self.reads)))):
                at = self.rng.randint(0, len(names))
                names.insert(at, name)
                types.insert(at, type_)
                header_results.insert(at, type_)
        self.emit(f"return {', '.join(names)} : {', '.join(types)}")

        def boundary(dtype):
            attr = ""
            if (self.gen.devices and "boundary_affinity" in self.features
                    and self.rng.random() < 0.15):
                attr = " " + affinity_attr(self.rng.choice(self.gen.devices))
            return f"{self.type_of(dtype)}{attr}"
        header_args = ", ".join([f"{a.name}: {boundary(a.dtype)}" for a in args]
                                + [f"{n}: {self.shape_text(s, d)}" for n, d, s in self.extra_args]
                                + [f"{n}: {t}" for n, t in scalar_args])
        f.extra_params = [([size for size, _ in s], d) for _, d, s in self.extra_args]
        dtypes = iter(f.results)
        result_types = ", ".join(t or boundary(next(dtypes)) for t in header_results)
        attributes = ""
        if self.gen.devices and (self.rng.random() < 0.7
                                 or "unplaced_functions" not in self.features):
            attributes = " attributes " + affinity_attr(self.rng.choice(self.gen.devices))
        visibility = "" if self.is_main else "private "
        f.lines = ([f"  func.func {visibility}@{f.name}({header_args}) -> ({result_types})"
                    f"{attributes} {{"] + self.lines + ["  }"])

    def merge(self, values):
        """One storage for `values` (and every value sharing theirs)."""
        groups = []
        for v in values:
            if v.storage not in groups:
                groups.append(v.storage)
        merged = groups[0]
        for g in groups[1:]:
            merged.written |= g.written
            merged.escaped |= g.escaped
            merged.external |= g.external
            merged.argument |= g.argument
            merged.unknown_owner |= g.unknown_owner
        for v in self.values:
            if v.storage in groups:
                v.storage = merged
        return merged

    def may_escape(self, value):
        """Whether `value` may be returned or passed to a module function:
        with write_into_escaping off, not if its storage was written into
        (issue 12)."""
        return "write_into_escaping" in self.features or not value.storage.written

    def choose_results(self):
        candidates = [v for v in self.defined() if self.may_escape(v)]
        # Arguments (returned as they came in) now and then, not mostly.
        computed = [v for v in candidates if not v.is_arg]
        results = []
        for _ in range(self.rng.randint(1, 3)):
            pool = computed if computed and self.rng.random() < 0.85 else candidates
            if not pool:
                break
            value = self.pick(pool)
            if value in results and self.rng.random() < 0.7:
                continue
            results.append(value)
        if not results:
            results.append(self.new_splat_or_fill(self.rng.choice(TENSOR_DTYPES)))
        for v in results:
            v.storage.escaped = True
        return results

    def step(self):
        kinds = ["elementwise"] * 5
        if not self.gen.dynamic:
            kinds.append("splat")
        if "fills" in self.features:
            kinds += ["fill"] * 2
            if "fill_existing" in self.features:
                kinds.append("fill_existing")
        if "external_calls" in self.features:
            kinds += ["external"] * 2
        if "module_calls" in self.features and self.callees:
            kinds += ["call"] * 2
        if "host_reads" in self.features:
            kinds.append("extract")
        if "native_ops" in self.features:
            kinds += ["native"] * 2
            if self.square():
                kinds += ["matmul", "transpose"]
        if self.linalg_kinds():
            kinds += ["linalg"] * 4
        if self.tensor_kinds():
            kinds += ["tensor"] * 3
        if self.depth:
            # Inside a region: no module calls, no host reads.
            kinds = [k for k in kinds if k not in ("call", "extract")]
        if self.gen.regions and self.depth < 2:
            nested = ["loop", "if"][self.rng.randrange(2):][:1]
            if self.frozen and "if_in_loop" not in self.features:
                nested = [k for k in nested if k != "if"]
            kinds += ["loop", "if"] if self.depth == 0 else nested
            if self.gen.whiles:
                kinds.append("while")
        kind = self.rng.choice(kinds)
        getattr(self, "op_" + kind)()

    def add(self, name, dtype, defined=True, from_call=False):
        value = TensorValue(name, dtype, defined, storage=Storage(external=from_call))
        value.from_call = from_call
        self.values.append(value)
        return value

    def require(self, dtype):
        """A defined value of `dtype`, made if there is none."""
        value = self.pick(self.defined(dtype))
        return value or self.new_splat_or_fill(dtype)

    def new_splat_or_fill(self, dtype):
        if not self.gen.dynamic and (self.rng.random() < 0.5 or "fills" not in self.features):
            return self.splat(dtype)
        return self.fill(self.empty(dtype), dtype)

    # Ops.
    def op_elementwise(self):
        value = self.pick(self.defined())
        dtype = value.dtype if value else self.rng.choice(TENSOR_DTYPES)
        lhs = value or self.require(dtype)
        rhs = self.require(dtype) if self.rng.random() < 0.85 else lhs
        if "write_into_escaping" not in self.features:
            # The result may be written into either operand: storage
            # written into must not join storage that escapes.
            a, b = lhs.storage, rhs.storage
            if (a.written and b.escaped) or (a.escaped and b.written):
                rhs = lhs
        if self.rng.random() < 0.5:
            lhs, rhs = rhs, lhs
        op = self.rng.choice(["add", "sub", "mul"]) + ("f" if dtype.startswith("f") else "i")
        name = self.gen.fresh("t")
        self.emit(f"{name} = arith.{op} {lhs.name}, {rhs.name}{self.place()} : {self.type_of(dtype)}")
        self.merge([lhs, rhs, self.add(name, dtype)])

    def square(self):
        """Whether the program's shape is a static square matrix."""
        return (not self.gen.dynamic and len(self.gen.shape) == 2
                and self.gen.shape[0] == self.gen.shape[1])

    def recent_operand(self):
        """A defined value, preferably recent, and its dtype (a new one of
        a random dtype where there is none)."""
        value = self.pick(self.defined())
        dtype = value.dtype if value else self.rng.choice(TENSOR_DTYPES)
        return value or self.require(dtype), dtype

    def op_native(self):
        """An elementwise op no built-in kernel implements: a native
        dispatch into a fresh tensor (never in place)."""
        lhs, dtype = self.recent_operand()
        t = self.type_of(dtype)
        name = self.gen.fresh("t")
        if dtype.startswith("f"):
            op = self.rng.choice(["maximumf", "minimumf", "negf", "absf"])
        else:
            op = self.rng.choice(["andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"])
        if op == "absf":
            self.emit(f"{name} = math.absf {lhs.name}{self.place()} : {t}")
        elif op == "negf":
            self.emit(f"{name} = arith.negf {lhs.name}{self.place()} : {t}")
        else:
            rhs = self.require(dtype)
            self.emit(f"{name} = arith.{op} {lhs.name}, {rhs.name}{self.place()} : {t}")
        self.add(name, dtype)

    def op_matmul(self):
        """linalg.matmul accumulating into its outs: a fill of a fresh
        tensor or a value written in place (copy-on-write if it is read
        again)."""
        a, dtype = self.recent_operand()
        b = self.require(dtype)
        target = None
        if self.rng.random() < 0.5:
            target = self.pick(self.writable(dtype, by_external=False))
        if target is None:
            target = self.fill(self.empty(dtype), dtype)
        t = self.type_of(dtype)
        name = self.gen.fresh("t")
        self.emit(f"{name} = linalg.matmul{self.place()} ins({a.name}, {b.name} : {t}, {t}) "
                  f"outs({target.name} : {t}) -> {t}")
        self.write_into(target, self.add(name, dtype))

    def op_transpose(self):
        source, dtype = self.recent_operand()
        target = self.empty(dtype)
        t = self.type_of(dtype)
        name = self.gen.fresh("t")
        self.emit(f"{name} = linalg.transpose{self.place()} ins({source.name} : {t}) "
                  f"outs({target.name} : {t}) permutation = [1, 0]")
        self.write_into(target, self.add(name, dtype))

    def op_extract(self):
        """One element read back on the host: a later fill value, maybe a
        result of @main."""
        source = self.pick(self.defined())
        if source is None:
            return self.op_elementwise()
        self.op_extract_from(source)

    def op_extract_from(self, source):
        indices = []
        for d in range(len(self.gen.shape)):
            name = self.gen.fresh("c")
            bound = 1 if self.gen.shape_dynamic[d] else self.gen.shape[d]
            self.emit(f"{name} = arith.constant {self.rng.randrange(bound)} : index")
            indices.append(name)
        name = self.gen.fresh("x")
        self.emit(f"{name} = tensor.extract {source.name}[{', '.join(indices)}]{self.place()} "
                  f": {self.type_of(source.dtype)}")
        (self.float_scalars if source.dtype.startswith("f") else self.scalars).append(
            (name, source.dtype))
        self.reads.append((name, source.dtype))

    def op_splat(self):
        self.splat(self.rng.choice(TENSOR_DTYPES))

    def splat(self, dtype):
        name = self.gen.fresh("t")
        self.emit(f"{name} = arith.constant{self.place()} dense<{self.gen.random_element(dtype)}> "
                  f": {self.type_of(dtype)}")
        value = self.add(name, dtype)
        value.constant = True
        value.storage.unknown_owner = True
        return value

    def empty(self, dtype):
        name = self.gen.fresh("e")
        dims = ", ".join(self.dynamic_dims())
        self.emit(f"{name} = tensor.empty({dims}){self.place()} : {self.type_of(dtype)}")
        return self.add(name, dtype, defined=False)

    def dynamic_dims(self):
        if not self.gen.dynamic:
            return []
        if self.dims is None:
            # Read once from an argument (every function of a dynamic program
            # takes at least one tensor).
            source = next(v for v in self.values if v.is_arg)
            self.dims = []
            for i, d in enumerate(self.gen.shape):
                if self.gen.shape_dynamic[i]:
                    index = self.gen.fresh("c")
                    dim = self.gen.fresh("d")
                    self.emit(f"{index} = arith.constant {i} : index")
                    self.emit(f"{dim} = tensor.dim {source.name}, {index} : {self.type_of(source.dtype)}")
                    self.dims.append(dim)
        return self.dims

    def scalar_of(self, dtype):
        """A scalar of the element type `dtype` for a fill: computed by the
        scalar functions where it is an integer."""
        if dtype.startswith("f") or dtype == "bf16":
            same = [n for n, t in self.float_scalars if t == dtype]
            if same and self.rng.random() < 0.7:
                return self.rng.choice(same)
            return self.constant(dtype, self.gen.random_element(dtype))
        if self.scalar_callees and self.rng.random() < 0.7:
            callee = self.rng.choice(self.scalar_callees)
            self.scalars += self.call_scalar(self.scalars, callee)
        if self.scalars and self.rng.random() < 0.8:
            name, type_ = self.rng.choice(self.scalars)
            value = self.cast(name, type_, dtype)
        else:
            value = self.constant(dtype)
        if self.rng.random() < 0.3:
            value = self.binary(self.scalars + [(value, dtype)], dtype)
        return value

    def constant(self, type_, value=None):
        if type_.startswith("f"):
            name = self.gen.fresh("c")
            self.emit(f"{name} = arith.constant {value} : {type_}")
            return name
        return super().constant(type_, value)

    def fill(self, target, dtype):
        scalar = self.scalar_of(dtype)
        name = self.gen.fresh("t")
        self.emit(f"{name} = linalg.fill{self.place()} ins({scalar} : {dtype}) "
                  f"outs({target.name} : {self.type_of(dtype)}) -> {self.type_of(dtype)}")
        return self.write_into(target, self.add(name, dtype))

    def write_into(self, target, result, also=()):
        """`result` is `target` written in place (and, with `also`, maybe
        the storage of those). A fresh tensor.empty is written once."""
        if target.defined:
            target.storage.written = True
        else:
            target.defined = None
        self.merge([target, result] + list(also))
        return result

    def op_fill(self):
        dtype = self.rng.choice(TENSOR_DTYPES)
        self.fill(self.empty(dtype), dtype)

    def writable(self, dtype, by_external):
        """Values a fill (or, `by_external`, a tied call) may write into."""
        candidates = self.defined(dtype)
        if "write_into_escaping" not in self.features:
            candidates = [v for v in candidates if not v.storage.escaped]
        if "write_into_reused_outside_storage" not in self.features:
            # The argument or module function result itself is fine; a
            # value whose storage an elementwise op may have taken over
            # from one is not.
            candidates = [v for v in candidates if v.is_arg or v.from_call
                          or not (v.storage.external or v.storage.argument)]
        if by_external and "argument_to_external" not in self.features:
            candidates = [v for v in candidates if not v.is_arg]
        # Inside a loop body, nothing from outside it is written in place
        # (nor what may share its storage).
        frozen = self.frozen_storage()
        return [v for v in candidates if v.storage not in frozen]

    def frozen_storage(self):
        return [v.storage for v in self.frozen]

    def op_fill_existing(self):
        target = self.pick(self.writable(self.rng.choice(TENSOR_DTYPES), by_external=False))
        if target is None:
            return self.op_fill()
        self.fill(target, target.dtype)

    def op_external(self):
        source_pool = self.defined("i32")
        if "argument_to_external" not in self.features:
            source_pool = [v for v in source_pool if not v.is_arg]
        if self.gen.may_alias and "may_alias_external_input" not in self.features:
            # The call may write over its input's storage (see FEATURES).
            source_pool = [v for v in source_pool if not (
                v.storage.external or v.storage.argument or v.storage.escaped)]
        if self.gen.may_alias:
            # The call may write over its input: not over a loop's outside.
            frozen = self.frozen_storage()
            source_pool = [v for v in source_pool if v.storage not in frozen]
        source = self.pick(source_pool) or self.new_splat_or_fill("i32")
        choice = self.rng.random()
        if choice < 0.5:
            out = self.empty("i32")
        elif (choice < 0.65 and "external_same_operand" in self.features
              and source in self.writable("i32", by_external=True)):
            out = source
        else:
            pool = [v for v in self.writable("i32", by_external=True) if v is not source]
            out = self.pick(pool) if pool and choice < 0.85 else None
            if out is None:
                out = self.fill(self.empty("i32"), "i32") if "fills" in self.features \
                    else self.empty("i32")
        callee = self.rng.choice(EXTERNALS)
        self.gen.used_externals = True
        name = self.gen.fresh("t")
        t = self.type_of("i32")
        self.emit(f"{name} = {self.call_keyword()} @{callee}({source.name}, {out.name}){self.place()} "
                  f": ({t}, {t}) -> {t}")
        self.write_into(out, self.add(name, "i32"), [source] if self.gen.may_alias else [])

    def op_call(self, callee=None):
        uncalled = [f for f in self.callees if f.name in self.gen.uncalled]
        callee = callee or self.rng.choice(uncalled or self.callees)
        self.gen.uncalled.discard(callee.name)
        args = []
        for dtype in callee.params:
            pool = [v for v in self.defined(dtype) if self.may_escape(v)]
            value = self.pick(pool)
            if value is None:
                value = self.new_splat_or_fill(dtype)
            args.append(value)
        for v in args:
            v.storage.escaped = True
        results = [self.gen.fresh("t") for _ in callee.results]
        arg_types = ", ".join(self.type_of(d) for d in callee.params)
        result_types = ", ".join(self.type_of(d) for d in callee.results)
        self.emit(f"{', '.join(results)} = call @{callee.name}({', '.join(v.name for v in args)})"
                  f"{self.place()} : ({arg_types}) -> ({result_types})")
        for name, dtype in zip(results, callee.results):
            self.add(name, dtype, from_call=True)


# --- The program -----------------------------------------------------------

class Generator:
    def __init__(self, seed, features):
        self.rng = random.Random(seed)
        # Choices added after programs were pinned by seed (dynamic
        # strides) draw from a stream of their own, so a program without
        # them is the one its seed gave before.
        self.late_rng = random.Random(f"late-{seed}")
        self.features = features
        self.counter = 0
        self.used_externals = False
        self.uncalled = set()  # tensor functions no function calls yet

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def random_int(self, type_):
        width = WIDTH[type_]
        if width == 1:
            return self.rng.randint(0, 1)
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
        r = self.rng.random()
        if r < 0.5:
            return self.rng.randint(max(low, -10), min(high, 10))
        if r < 0.6:
            return self.rng.choice([low, high, low + 1, high - 1])
        return self.rng.randint(low, high)

    def random_element(self, dtype):
        if dtype.startswith("f") or dtype == "bf16":
            return self.rng.randint(-12, 12) / 4
        return self.random_int(dtype)

    def generate(self):
        rng, features = self.rng, self.features
        program = Program()
        if "tile_programs" in features and "one_device" in features and rng.random() < 0.06:
            return tile_program(self, program)
        # Shapes: one per program (elementwise ops need equal shapes).
        rank = rng.choice([1, 1, 2, 2, 3])
        self.shape = [rng.randint(1, 5) for _ in range(rank)]
        self.dynamic = "dynamic_shapes" in features and rng.random() < 0.3
        self.shape_dynamic = [self.dynamic and (i == 0 or rng.random() < 0.5) for i in range(rank)]
        self.shape_text = "x".join("?" if dyn else str(d) for d, dyn in zip(self.shape, self.shape_dynamic))
        program.dynamic = self.dynamic
        # Compiled with --module: a tied call may write over its input.
        self.may_alias = "plugin_may_alias" in features and rng.random() < 0.5
        # Without `nosideeffects` an external function may keep what it is
        # given: the program releases it and frees it if it was the last owner.
        self.keeps_arguments = {name: "external_side_effects" in features and rng.random() < 0.5
                                for name in EXTERNALS}

        # Devices.
        self.devices = []
        topology = None
        two = "two_devices" in features and ("one_device" not in features or rng.random() < 0.45)
        if two:
            self.devices = ["a", "b"]
            program.devices = self.devices
            if "runtime_links" in features and rng.random() < 0.5:
                program.runtime_links = True
                topology = "#hal.runtime"
        # scf.for / scf.if in tensor functions (see FEATURES).
        self.regions = ("tensor_regions" in features
                        and (not self.dynamic or "dynamic_regions" in features)
                        and (not self.devices or "two_device_regions" in features))
        self.whiles = self.regions and "while_loops" in features
        module_calls_ok = "module_calls" in features and (
            not program.runtime_links or "runtime_links_module_calls" in features) and (
            not self.devices or "two_device_module_calls" in features)

        # Scalar functions, each calling those before it.
        scalar_functions = []
        for k in range(rng.randint(0, 3)):
            params = [rng.choice(SCALAR_TYPES) for _ in range(rng.randint(1, 3))]
            recursive = ("scalar_recursion" in features and rng.random() < 0.25)
            if recursive:
                params[0] = rng.choice(["i8", "i16", "i32"])
            if all(t == "i1" for t in params):
                params[-1] = rng.choice(SCALAR_TYPES[1:])  # to branch on
            results = [rng.choice(SCALAR_TYPES[1:]) for _ in range(rng.randint(1, 2))]
            function = ScalarFunction(f"scalar{k}", params, results, recursive)
            ScalarFunctionBuilder(self, function, list(scalar_functions)).build()
            scalar_functions.append(function)

        # Tensor functions, each calling those before it, then @main.
        tensor_functions = []
        count = rng.randint(0, 3) if module_calls_ok else 0
        for k in range(count + 1):
            is_main = k == count
            function = TensorFunction("main" if is_main else f"tensor{k}")
            builder = TensorFunctionBuilder(self, function, list(tensor_functions) if module_calls_ok else [],
                                            scalar_functions, is_main)
            params = [rng.choice(TENSOR_DTYPES) for _ in range(rng.randint(1, 3 if not is_main else 4))]
            if not is_main and not self.dynamic and rng.random() < 0.15:
                params = []
            builder.build(params)
            tensor_functions.append(function)
            self.uncalled.add(function.name)
        main = tensor_functions[-1]
        program.inputs = ([(list(self.shape), d) for d in main.params]
                          + main.extra_params
                          + [([], t) for t in main.scalar_params])
        program.compile_with_plugin = self.may_alias and self.used_externals

        lines = []
        if self.devices:
            if topology:
                links = ", ".join(
                    f"(@{x} -> @{y} = {{transparent_access = {topology}, unified_memory = {topology}}})"
                    for x, y in (("a", "b"), ("b", "a")))
                lines.append(f"module attributes {{stream.topology = #hal.device.topology<links = [{links}]>}} {{")
            else:
                lines.append("module {")
            for d in self.devices:
                lines.append(f'  hal.device.global @{d} = #hal.device.target<"local", {{}}>')
        else:
            lines.append("module {")
        if self.used_externals:
            t = f"tensor<{self.shape_text}xi32>"
            for name in EXTERNALS:
                effects = "" if self.keeps_arguments[name] else ", nosideeffects"
                lines.append(f"  func.func private @{name}({t}, {t}) -> ({t} {{iree.abi.tied = 1 : index}}) "
                             f'attributes {{iree.abi.model = "coarse-fences"{effects}}}')
        for f in scalar_functions + tensor_functions:
            lines += f.lines
        lines.append("}")
        program.text = "\n".join(lines) + "\n"
        return program


def generate(seed, features):
    return Generator(seed, features).generate()


def main(argv):
    parser = argparse.ArgumentParser(description="Writes a random Ferry program.")
    parser.add_argument("seed", type=int)
    parser.add_argument("--features", default="", help="+name,-name,all,none")
    parser.add_argument("-o", dest="output")
    args = parser.parse_args(argv)
    program = generate(args.seed, parse_features(args.features))
    if args.output:
        with open(args.output, "w") as f:
            f.write(program.text)
    else:
        sys.stdout.write(program.text)
    print("inputs: " + " ".join("".join(f"{n}x" for n in s) + d for s, d in program.inputs),
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
