"""The linalg steps of generate.py's tensor functions (issue 14): ops whose
operands and results have shapes other than the program's one shape.

Values of other shapes (`Side`) live beside the builder's TensorValues, in
`builder.side`, scoped like them. A shape is a tuple of dims, each
`(size, pidx)`: `pidx` names the program dimension a dynamic dim is (its
size read with `tensor.dim` from an argument), None for a static dim. A
result of the program's shape becomes a TensorValue (so the ordinary steps
use it, and return it); every other shape stays a Side, read by later linalg
steps and maybe returned by @main. Nothing here writes into a value in
place except into a fresh destination (a `tensor.empty` or its fill) or,
like `op_matmul`, into a value `writable` allows.

Floats: inputs are multiples of 1/4, so sums and products stay exact in
f32 and any summation order gives the same bits; a math function or a
division makes a value inexact (the reference marks what depends on one and
run_random compares it within the documented tolerance). Ops that are not
continuous (cmpf, floor, ceil, round) only take exact operands, so an
inexact value never flips a comparison.
"""
import itertools

FLOATS = ("f32", "f64")
# Element types only tensor_gen.py's steps use (i1, f16, bf16): their values
# stay Sides whatever their shape.
NEW_DTYPES = ("i1", "f16", "bf16")


class Side:
    def __init__(self, name, dtype, shape, exact, origin=None):
        self.name = name
        self.dtype = dtype
        self.shape = tuple(shape)
        self.exact = exact or not dtype.startswith("f")
        self.origin = origin  # the TensorValue a reshape of it views


class BodyBuilder:
    """The scalar body of a linalg.generic / map: ops on the block
    arguments of one element type."""

    def __init__(self, owner, dtype, args, use_math, indent):
        self.o = owner
        self.rng = owner.rng
        self.dtype = dtype
        self.values = list(args)  # [(name, exact)]
        self.lines = []
        self.use_math = use_math
        self.indent = indent

    def fresh(self, prefix="b"):
        return self.o.gen.fresh(prefix)

    def emit(self, text):
        self.lines.append(self.indent + text)

    def const(self, value, type_=None):
        type_ = type_ or self.dtype
        name = self.fresh("k")
        self.emit(f"{name} = arith.constant {value} : {type_}")
        return name

    def pick(self, exact_only=False):
        pool = [v for v in self.values if v[1] or not exact_only]
        if not pool:
            return None
        if self.rng.random() < 0.6:
            return self.rng.choice(pool[-3:])
        return self.rng.choice(pool)

    def op(self):
        """One more value from those there are."""
        t = self.dtype
        a = self.pick()
        b = self.pick()
        name = self.fresh()
        if t.startswith("f"):
            kinds = ["addf", "subf", "mulf", "maximumf", "minimumf", "negf", "absf", "fma",
                     "const", "cast"]
            if self.pick(exact_only=True):
                kinds += ["select", "rounding"]
            if self.use_math:
                kinds += ["math"] * 3 + ["divf"]
            kind = self.rng.choice(kinds)
            if kind in ("addf", "subf", "mulf", "maximumf", "minimumf"):
                self.emit(f"{name} = arith.{kind} {a[0]}, {b[0]} : {t}")
                exact = a[1] and b[1]
            elif kind in ("negf", "absf"):
                dialect = "arith" if kind == "negf" else "math"
                self.emit(f"{name} = {dialect}.{kind} {a[0]} : {t}")
                exact = a[1]
            elif kind == "fma":
                c = self.pick()
                self.emit(f"{name} = math.fma {a[0]}, {b[0]}, {c[0]} : {t}")
                exact = a[1] and b[1] and c[1]
            elif kind == "const":
                k = self.const(f"{self.rng.randint(-8, 8) / 4}")
                self.emit(f"{name} = arith.mulf {a[0]}, {k} : {t}")
                exact = a[1]
            elif kind == "cast":
                # Through the other float type and back (exact both ways
                # for f32 -> f64 -> f32; f64 -> f32 rounds: inexact).
                other = "f64" if t == "f32" else "f32"
                mid = self.fresh()
                up, down = ("extf", "truncf") if t == "f32" else ("truncf", "extf")
                self.emit(f"{mid} = arith.{up} {a[0]} : {t} to {other}")
                self.emit(f"{name} = arith.{down} {mid} : {other} to {t}")
                exact = a[1] and t == "f32"
            elif kind == "select":
                x, y = self.pick(exact_only=True), self.pick(exact_only=True)
                cmp = self.fresh("cmp")
                predicate = self.rng.choice(["oeq", "one", "olt", "ole", "ogt", "oge"])
                self.emit(f"{cmp} = arith.cmpf {predicate}, {x[0]}, {y[0]} : {t}")
                self.emit(f"{name} = arith.select {cmp}, {a[0]}, {b[0]} : {t}")
                exact = a[1] and b[1]
            elif kind == "rounding":
                x = self.pick(exact_only=True)
                half = self.const("0.5")
                shifted = self.fresh()
                # x / 4 + 0.5 is never a tie of round (x is a multiple of 1/4).
                quarter = self.const("0.25")
                scaled = self.fresh()
                self.emit(f"{scaled} = arith.mulf {x[0]}, {quarter} : {t}")
                self.emit(f"{shifted} = arith.addf {scaled}, {half} : {t}")
                op = self.rng.choice(["floor", "ceil", "round"])
                self.emit(f"{name} = math.{op} {shifted if op != 'round' else scaled} : {t}")
                exact = True
            elif kind == "divf":
                absb, den = self.fresh(), self.fresh()
                one = self.const("1.0")
                self.emit(f"{absb} = math.absf {b[0]} : {t}")
                self.emit(f"{den} = arith.addf {absb}, {one} : {t}")
                self.emit(f"{name} = arith.divf {a[0]}, {den} : {t}")
                exact = False
            else:
                name = self.math(a[0])
                exact = False
            self.values.append((name, exact))
            return
        width = int(t[1:])
        # No divsi / remsi: Ferry refuses integer division in a kernel
        # body (it would trap on a zero divisor), a documented refusal.
        kinds = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
                 "minui", "shift", "select", "widen", "absi"]
        kind = self.rng.choice(kinds)
        if kind in ("addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui",
                    "minui"):
            self.emit(f"{name} = arith.{kind} {a[0]}, {b[0]} : {t}")
        elif kind == "shift":
            mask = self.const(width - 1)
            amount = self.fresh()
            self.emit(f"{amount} = arith.andi {b[0]}, {mask} : {t}")
            op = self.rng.choice(["shli", "shrsi", "shrui"])
            self.emit(f"{name} = arith.{op} {a[0]}, {amount} : {t}")
        elif kind == "div":
            mask, one = self.const((1 << (width - 2)) - 1), self.const(1)
            masked, divisor = self.fresh(), self.fresh()
            self.emit(f"{masked} = arith.andi {b[0]}, {mask} : {t}")
            self.emit(f"{divisor} = arith.ori {masked}, {one} : {t}")
            op = self.rng.choice(["divsi", "remsi"])
            self.emit(f"{name} = arith.{op} {a[0]}, {divisor} : {t}")
        elif kind == "select":
            cmp = self.fresh("cmp")
            predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                         "ugt", "uge"])
            x, y = self.pick(), self.pick()
            self.emit(f"{cmp} = arith.cmpi {predicate}, {x[0]}, {y[0]} : {t}")
            self.emit(f"{name} = arith.select {cmp}, {a[0]}, {b[0]} : {t}")
        elif kind == "widen" and width < 64:
            wide, wide2, prod = self.fresh(), self.fresh(), self.fresh()
            ext = self.rng.choice(["extsi", "extui"])
            self.emit(f"{wide} = arith.{ext} {a[0]} : {t} to i64")
            self.emit(f"{wide2} = arith.extsi {b[0]} : {t} to i64")
            self.emit(f"{prod} = arith.muli {wide}, {wide2} : i64")
            self.emit(f"{name} = arith.trunci {prod} : i64 to {t}")
        else:
            self.emit(f"{name} = math.absi {a[0]} : {t}")
        self.values.append((name, True))

    def math(self, x):
        """A math function of `x`, on an argument in its domain where its
        approximation is accurate (bounded inputs for exp, sin, cos)."""
        t = self.dtype
        fns = ["exp", "exp2", "log", "log1p", "tanh", "sqrt", "rsqrt", "erf", "powf", "sin", "cos"]
        fn = self.rng.choice(fns)
        a = self.fresh()
        if fn in ("exp", "exp2"):
            self.emit(f"{a} = math.absf {x} : {t}")
            neg = self.fresh()
            self.emit(f"{neg} = arith.negf {a} : {t}")
            x = neg
        elif fn in ("log", "rsqrt", "powf"):
            one = self.const("1.0")
            ab = self.fresh()
            self.emit(f"{ab} = math.absf {x} : {t}")
            self.emit(f"{a} = arith.addf {ab}, {one} : {t}")
            x = a
        elif fn in ("log1p", "sqrt"):
            self.emit(f"{a} = math.absf {x} : {t}")
            x = a
        elif fn in ("sin", "cos", "erf", "tanh"):
            low, high = self.const("-4.0"), self.const("4.0")
            self.emit(f"{a} = arith.maximumf {x}, {low} : {t}")
            clamped = self.fresh()
            self.emit(f"{clamped} = arith.minimumf {a}, {high} : {t}")
            x = clamped
        name = self.fresh()
        if fn == "powf":
            e = self.const(self.rng.choice(["0.5", "2.0", "1.5"]))
            self.emit(f"{name} = math.powf {x}, {e} : {t}")
        else:
            self.emit(f"{name} = math.{fn} {x} : {t}")
        return name

    def combine(self, acc, value):
        """The reduction of `value` into the accumulator `acc`."""
        t = self.dtype
        name = self.fresh()
        if t.startswith("f"):
            op = self.rng.choice(["addf", "addf", "maximumf", "minimumf"])
        else:
            op = self.rng.choice(["addi", "addi", "muli", "maxsi", "minui", "xori"])
        self.emit(f"{name} = arith.{op} {acc}, {value} : {t}")
        return name


class LinalgSteps:
    """Mixed into generate.TensorFunctionBuilder."""

    # --- Shapes and values ----------------------------------------------

    def linalg_kinds(self):
        """The linalg step kinds the features allow in this program."""
        f = self.features
        if self.gen.dynamic and "linalg_dynamic" not in f:
            return []
        if self.gen.dynamic and self.gen.devices and "linalg_dynamic_two_devices" not in f:
            return []  # known failure (README.md): an import crash
        kinds = []
        if "linalg_generic" in f:
            kinds += ["generic"] * 2
        if "linalg_named" in f:
            kinds += ["named"] * 2
        if "linalg_conv" in f:
            kinds += ["conv"]
        if "reshapes" in f:
            kinds += ["reshape"]
        if "fusion_chains" in f:
            kinds += ["chain"]
        if "gathers" in f:
            kinds += ["gather"]
        return kinds

    def op_linalg(self):
        kind = self.rng.choice(self.linalg_kinds())
        getattr(self, "linalg_" + kind)()

    def program_shape(self):
        return tuple((d, i if dyn else None)
                     for i, (d, dyn) in enumerate(zip(self.gen.shape, self.gen.shape_dynamic)))

    def shape_text(self, shape, dtype):
        dims = "".join(("?" if p is not None else str(s)) + "x" for s, p in shape)
        return f"tensor<{dims}{dtype}>"

    def new_dim(self, low=1, high=4):
        """A loop size: a static one or, in a dynamic program, maybe one of
        the program's dynamic dims."""
        dynamic = [i for i, dyn in enumerate(self.gen.shape_dynamic) if dyn]
        if dynamic and self.rng.random() < 0.4:
            i = self.rng.choice(dynamic)
            return (self.gen.shape[i], i)
        return (self.rng.randint(low, high), None)

    def dim_value(self, pidx):
        dims = self.dynamic_dims()
        return dims[sum(self.gen.shape_dynamic[:pidx])]

    def side_values(self, dtype=None, shape=None):
        """Every defined value, as Sides: program-shaped ones too."""
        out = []
        prog = self.program_shape()
        for v in self.defined(dtype):
            if shape is None or shape == prog:
                side = Side(v.name, v.dtype, prog, getattr(v, "exact", False), origin=v)
                out.append(side)
        # (Values of the new element types only where asked for.)
        out += [s for s in self.side if (s.dtype == dtype if dtype else s.dtype not in NEW_DTYPES)
                and (shape is None or s.shape == shape)]
        return out

    def anchor(self, dtype=None, rank=None, floats=False):
        pool = [s for s in self.side_values(dtype)
                if (rank is None or len(s.shape) in rank)
                and (not floats or s.dtype.startswith("f"))]
        if pool and self.rng.random() < 0.85:
            # Prefer other shapes now and then: chains of linalg ops.
            others = [s for s in pool if s.origin is None]
            if others and self.rng.random() < 0.5:
                return self.rng.choice(others[-4:])
            return self.rng.choice(pool[-4:] if self.rng.random() < 0.6 else pool)
        return None

    def source(self, shape, dtype):
        """A defined value of `shape`: one there is, a new argument of
        @main (random contents), or a fill."""
        pool = self.side_values(dtype, shape)
        if pool and self.rng.random() < 0.6:
            return self.rng.choice(pool[-3:])
        if self.is_main and len(self.extra_args) < 4 and self.rng.random() < 0.7:
            name = self.gen.fresh("arg")
            self.extra_args.append((name, dtype, shape))
            side = Side(name, dtype, shape, exact=True)
            if shape == self.program_shape() and dtype not in NEW_DTYPES:
                value = self.add(name, dtype)
                value.exact = True
                value.is_arg = True
                value.storage.argument = True
                side.origin = value
            else:
                self.side.append(side)
            return side
        return self.fresh_fill(shape, dtype)

    def empty_of(self, shape, dtype):
        dims = ", ".join(self.dim_value(p) for _, p in shape if p is not None)
        name = self.gen.fresh("e")
        self.emit(f"{name} = tensor.empty({dims}){self.place()} : {self.shape_text(shape, dtype)}")
        return name

    def fresh_fill(self, shape, dtype):
        empty = self.empty_of(shape, dtype)
        scalar = self.scalar_of(dtype)
        name = self.gen.fresh("t")
        t = self.shape_text(shape, dtype)
        self.emit(f"{name} = linalg.fill{self.place()} ins({scalar} : {dtype}) "
                  f"outs({empty} : {t}) -> {t}")
        return self.result(name, dtype, shape, exact=False)

    def result(self, name, dtype, shape, exact, origin=None):
        """Registers an op's result: a TensorValue where it has the
        program's shape."""
        if shape == self.program_shape() and dtype not in NEW_DTYPES:
            value = self.add(name, dtype)
            value.exact = exact
            if origin is not None:
                self.merge([origin, value])  # a view of its storage
            return Side(name, dtype, shape, exact, origin=value)
        side = Side(name, dtype, shape, exact, origin=origin)
        self.side.append(side)
        return side

    def destination(self, shape, dtype, accumulates):
        """(name, written TensorValue or None) of an op's `outs`: a fresh
        empty (a fill where the op reads it), or a program-shaped value
        written in place where `writable` allows."""
        if shape == self.program_shape() and self.rng.random() < 0.3:
            target = self.pick(self.writable(dtype, by_external=False))
            if target is not None:
                return target.name, target
        if accumulates:
            return self.fresh_fill(shape, dtype).name, None
        return self.empty_of(shape, dtype), None

    def finish(self, name, dtype, shape, exact, target):
        if target is not None:
            value = self.write_into(target, self.add(name, dtype))
            value.exact = exact
            return Side(name, dtype, shape, exact, origin=value)
        return self.result(name, dtype, shape, exact)

    # --- linalg.generic ---------------------------------------------------

    def linalg_generic(self, anchor=None):
        anchor = anchor or self.anchor(rank=(1, 2, 3, 4))
        dtype = anchor.dtype if anchor else self.rng.choice(self.gen_dtypes())
        dims = list(anchor.shape) if anchor else [self.new_dim() for _ in range(self.rng.randint(1, 3))]
        if len(dims) < 4 and self.rng.random() < 0.4:
            dims.append(self.new_dim())
        n = len(dims)
        # Loop k has size dims[perm[k]]... name loops in a random order.
        order = list(range(n))
        self.rng.shuffle(order)
        loops = [dims[order[k]] for k in range(n)]  # loop k's dim
        iterators = ["reduction" if self.rng.random() < 0.3 else "parallel" for _ in range(n)]
        if "parallel" not in iterators:
            iterators[self.rng.randrange(n)] = "parallel"
        parallel = [k for k in range(n) if iterators[k] == "parallel"]
        reduction = [k for k in range(n) if iterators[k] == "reduction"]
        maps = []
        operands = []
        if anchor:
            # The anchor's dim j is loop order.index(j), in its own order.
            anchor_map = [order.index(j) for j in range(len(anchor.shape))]
            maps.append(anchor_map)
            operands.append(anchor)
        for _ in range(self.rng.randint(0 if anchor else 1, 2)):
            size = self.rng.randint(1, n)
            chosen = self.rng.sample(range(n), size)
            maps.append(chosen)
            operands.append(None)
        covered = set(itertools.chain.from_iterable(maps))
        missing = [k for k in reduction if k not in covered]
        if missing:
            maps.append(missing)
            operands.append(None)
        for k, m in enumerate(maps):
            if operands[k] is None:
                operands[k] = self.source(tuple(loops[d] for d in m), dtype)
        out_map = list(parallel)
        self.rng.shuffle(out_map)
        out_shape = tuple(loops[d] for d in out_map)
        reads_out = bool(reduction) or self.rng.random() < 0.3
        out, target = self.destination(out_shape, dtype, accumulates=reads_out)
        exact = all(o.exact for o in operands)
        use_math = "math_ops" in self.features and dtype.startswith("f")
        ins = [(self.gen.fresh("in"), o.exact) for o in operands]
        acc = self.gen.fresh("acc")
        body = BodyBuilder(self, dtype, ins, use_math, "    " + "  " * self.depth + "  ")
        if "scalar_captures" in self.features and self.rng.random() < 0.3:
            # A scalar of the function read from outside the body (a float
            # one counted inexact: it may come from one).
            body.values.append((self.scalar_of(dtype), not dtype.startswith("f")))
        if reads_out and not reduction:
            body.values.append((acc, exact and target is None))
        for _ in range(self.rng.randint(1, 4)):
            body.op()
        value = body.values[-1][0]
        if reduction:
            value = body.combine(acc, value)
        elif all(m == out_map for m in maps) and "identity_generic" not in self.features:
            # Every map the same permutation: the canonicalizer erases the
            # generic if its body folds to yielding an argument (minsi %x,
            # %x; addi 0, %x), and Ferry's dispatch then writes nothing
            # (README.md, known failures). A last op that cannot fold so.
            k = body.const(self.rng.choice(["0.75", "-1.5"]) if dtype.startswith("f")
                           else self.rng.choice([3, 5, -7]))
            last = self.gen.fresh("b")
            body.emit(f"{last} = arith.{'addf' if dtype.startswith('f') else 'addi'} {value}, {k} : {dtype}")
            value = last
        body.emit(f"linalg.yield {value} : {dtype}")
        exact = exact and all(e for _, e in body.values)
        names = [f"d{k}" for k in range(n)]
        affine = [f"affine_map<({', '.join(names)}) -> ({', '.join(names[d] for d in m)})>"
                  for m in maps + [out_map]]
        its = ", ".join(f'"{i}"' for i in iterators)
        name = self.gen.fresh("g")
        in_types = ", ".join(self.shape_text(o.shape, dtype) for o in operands)
        out_type = self.shape_text(out_shape, dtype)
        self.emit(f"{name} = linalg.generic{{indexing_maps = [{', '.join(affine)}], "
                  f"iterator_types = [{its}]{self.affinity_entry()}}} "
                  f"ins({', '.join(o.name for o in operands)} : {in_types}) "
                  f"outs({out} : {out_type}) {{")
        self.lines.append("    " + "  " * self.depth + f"^bb0({', '.join(f'{i}: {dtype}' for i, _ in ins)}, "
                          f"{acc}: {dtype}):")
        self.lines += body.lines
        self.lines.append("    " + "  " * self.depth + f"}} -> {out_type}")
        return self.finish(name, dtype, out_shape, exact, target)

    def linalg_gather(self):
        """A gather: a generic adding to each element of a static value the
        element at the reversed position along one dim, read with
        tensor.extract at indices from linalg.index."""
        src = self.anchor(rank=(1, 2, 3))
        if src is None or src.dtype not in self.gen_dtypes() or any(
                p is not None for _, p in src.shape):
            return
        dtype, shape = src.dtype, src.shape
        flip = self.rng.randrange(len(shape))
        indent = "    " + "  " * self.depth + "  "
        arg, acc, value, total = (self.gen.fresh(p) for p in ("in", "acc", "b", "b"))
        lines, indices = [], []
        for d, (size, _) in enumerate(shape):
            at = self.gen.fresh("b")
            lines.append(f"{at} = linalg.index {d} : index")
            if d == flip:
                last, flipped = self.gen.fresh("k"), self.gen.fresh("b")
                lines.append(f"{last} = arith.constant {size - 1} : index")
                lines.append(f"{flipped} = arith.subi {last}, {at} : index")
                at = flipped
            indices.append(at)
        text = self.shape_text(shape, dtype)
        lines.append(f"{value} = tensor.extract {src.name}[{', '.join(indices)}] : {text}")
        lines.append(f"{total} = arith.{'addf' if dtype.startswith('f') else 'addi'} "
                     f"{arg}, {value} : {dtype}")
        lines.append(f"linalg.yield {total} : {dtype}")
        out = self.empty_of(shape, dtype)
        names = [f"d{k}" for k in range(len(shape))]
        identity = f"affine_map<({', '.join(names)}) -> ({', '.join(names)})>"
        its = ", ".join(['"parallel"'] * len(shape))
        name = self.gen.fresh("g")
        self.emit(f"{name} = linalg.generic{{indexing_maps = [{identity}, {identity}], "
                  f"iterator_types = [{its}]{self.affinity_entry()}}} "
                  f"ins({src.name} : {text}) outs({out} : {text}) {{")
        self.lines.append(indent[:-2] + f"^bb0({arg}: {dtype}, {acc}: {dtype}):")
        self.lines += [indent + line for line in lines]
        self.lines.append(indent[:-2] + f"}} -> {text}")
        self.result(name, dtype, shape, src.exact)

    def affinity_entry(self):
        """`stream.affinity` as an entry of an op's own attribute dict."""
        if self.gen.devices and self.rng.random() < 0.4:
            return f", stream.affinity = #hal.device.affinity<@{self.rng.choice(self.gen.devices)}>"
        return ""

    def gen_dtypes(self):
        return ["i8", "i16", "i32", "i64", "f32", "f64"]

    # --- Named ops --------------------------------------------------------

    def linalg_named(self):
        kind = self.rng.choice(["reduce", "broadcast", "map", "copy", "contraction",
                                "contraction", "softmax"])
        getattr(self, "named_" + kind)()

    def named_reduce(self, anchor=None):
        anchor = anchor or self.anchor(rank=(1, 2, 3, 4))
        if anchor is None or len(anchor.shape) < 2:
            anchor = anchor or self.source((self.new_dim(), self.new_dim()),
                                           self.rng.choice(self.gen_dtypes()))
        rank = len(anchor.shape)
        if rank < 2:
            return self.named_broadcast(anchor)
        dims = sorted(self.rng.sample(range(rank), self.rng.randint(1, rank - 1)))
        out_shape = tuple(d for k, d in enumerate(anchor.shape) if k not in dims)
        dtype = anchor.dtype
        out = self.fresh_fill(out_shape, dtype).name
        x, acc = self.gen.fresh("x"), self.gen.fresh("acc")
        body = BodyBuilder(self, dtype, [(x, anchor.exact)], False, "    " + "  " * self.depth + "  ")
        value = body.combine(acc, x)
        body.emit(f"linalg.yield {value} : {dtype}")
        name = self.gen.fresh("r")
        # (reduce, map, broadcast and copy take their attributes after
        # outs; a leading dict does not parse.)
        self.emit(f"{name} = linalg.reduce ins({anchor.name} : "
                  f"{self.shape_text(anchor.shape, dtype)}) outs({out} : "
                  f"{self.shape_text(out_shape, dtype)}) dimensions = [{', '.join(map(str, dims))}]"
                  f"{self.place()} ({x}: {dtype}, {acc}: {dtype}) {{")
        self.lines += body.lines
        self.lines.append("    " + "  " * self.depth + "}")
        return self.result(name, dtype, out_shape, anchor.exact)

    def named_broadcast(self, anchor=None):
        anchor = anchor or self.anchor(rank=(1, 2, 3))
        if anchor is None:
            anchor = self.source((self.new_dim(),), self.rng.choice(self.gen_dtypes()))
        shape = list(anchor.shape)
        at = self.rng.randint(0, len(shape))
        shape.insert(at, self.new_dim())
        shape = tuple(shape)
        dtype = anchor.dtype
        out, target = self.destination(shape, dtype, accumulates=False)
        name = self.gen.fresh("b")
        self.emit(f"{name} = linalg.broadcast ins({anchor.name} : "
                  f"{self.shape_text(anchor.shape, dtype)}) outs({out} : "
                  f"{self.shape_text(shape, dtype)}) dimensions = [{at}]{self.place()}")
        return self.finish(name, dtype, shape, anchor.exact, target)

    def named_map(self, anchor=None):
        anchor = anchor or self.anchor(rank=(1, 2, 3, 4))
        if anchor is None:
            anchor = self.source((self.new_dim(), self.new_dim()), self.rng.choice(self.gen_dtypes()))
        dtype, shape = anchor.dtype, anchor.shape
        operands = [anchor] + [self.source(shape, dtype) for _ in range(self.rng.randint(0, 1))]
        out, target = self.destination(shape, dtype, accumulates=False)
        ins = [(self.gen.fresh("in"), o.exact) for o in operands]
        init = self.gen.fresh("o")
        use_math = "math_ops" in self.features and dtype.startswith("f")
        body = BodyBuilder(self, dtype, ins, use_math, "    " + "  " * self.depth + "  ")
        for _ in range(self.rng.randint(1, 3)):
            body.op()
        body.emit(f"linalg.yield {body.values[-1][0]} : {dtype}")
        exact = all(e for _, e in body.values)
        t = self.shape_text(shape, dtype)
        name = self.gen.fresh("m")
        args = ", ".join(f"{i}: {dtype}" for i, _ in ins)
        self.emit(f"{name} = linalg.map ins({', '.join(o.name for o in operands)} : "
                  f"{', '.join([t] * len(operands))}) outs({out} : {t}){self.place()} "
                  f"({args}, {init}: {dtype}) {{")
        self.lines += body.lines
        self.lines.append("    " + "  " * self.depth + "}")
        return self.finish(name, dtype, shape, exact, target)

    def named_copy(self):
        anchor = self.anchor()
        if anchor is None:
            return self.named_map()
        out, target = self.destination(anchor.shape, anchor.dtype, accumulates=False)
        t = self.shape_text(anchor.shape, anchor.dtype)
        name = self.gen.fresh("cp")
        self.emit(f"{name} = linalg.copy ins({anchor.name} : {t}) outs({out} : {t}){self.place()} -> {t}")
        return self.finish(name, anchor.dtype, anchor.shape, anchor.exact, target)

    def named_softmax(self):
        anchor = self.anchor(rank=(1, 2, 3), floats=True)
        if anchor is None:
            anchor = self.source((self.new_dim(), self.new_dim()), self.rng.choice(FLOATS))
        t = self.shape_text(anchor.shape, anchor.dtype)
        out, target = self.destination(anchor.shape, anchor.dtype, accumulates=False)
        name = self.gen.fresh("sm")
        dim = self.rng.randrange(len(anchor.shape))
        self.emit(f"{name} = linalg.softmax{self.place()} dimension({dim}) ins({anchor.name} : {t}) "
                  f"outs({out} : {t}) -> {t}")
        return self.finish(name, anchor.dtype, anchor.shape, False, target)

    def named_contraction(self, anchor=None):
        """matmul (any shape), batch_matmul, matvec, vecmat, dot: the
        anchor as one operand where its rank fits."""
        anchor = anchor or self.anchor(rank=(1, 2, 3))
        dtype = anchor.dtype if anchor else self.rng.choice(self.gen_dtypes())
        rank = len(anchor.shape) if anchor else self.rng.choice([1, 2, 3])
        choices = {1: ["vecmat", "dot"], 2: ["matmul", "matmul_rhs", "matvec"],
                   3: ["batch_matmul"]}[rank]
        kind = self.rng.choice(choices)
        d = self.new_dim
        if kind == "vecmat":
            k = anchor.shape[0] if anchor else d()
            n_ = d()
            shapes, out_shape = [(k,), (k, n_)], (n_,)
        elif kind == "dot":
            k = anchor.shape[0] if anchor else d()
            shapes, out_shape = [(k,), (k,)], ()
        elif kind == "matmul":
            m, k = anchor.shape if anchor else (d(), d())
            n_ = d()
            shapes, out_shape = [(m, k), (k, n_)], (m, n_)
        elif kind == "matmul_rhs":
            k, n_ = anchor.shape if anchor else (d(), d())
            m = d()
            shapes, out_shape = [(m, k), (k, n_)], (m, n_)
        elif kind == "matvec":
            m, k = anchor.shape if anchor else (d(), d())
            shapes, out_shape = [(m, k), (k,)], (m,)
        else:
            b, m, k = anchor.shape if anchor else (d(), d(), d())
            n_ = d()
            shapes, out_shape = [(b, m, k), (b, k, n_)], (b, m, n_)
        position = 1 if kind == "matmul_rhs" else 0
        operands = []
        for i, s in enumerate(shapes):
            operands.append(anchor if anchor and i == position else self.source(tuple(s), dtype))
        op = "matmul" if kind == "matmul_rhs" else kind
        return self.contract(op, operands, out_shape, dtype)

    def contract(self, op, operands, out_shape, dtype, attrs=""):
        out, target = self.destination(out_shape, dtype, accumulates=True)
        name = self.gen.fresh("c")
        types = ", ".join(self.shape_text(o.shape, dtype) for o in operands)
        t = self.shape_text(out_shape, dtype)
        self.emit(f"{name} = linalg.{op}{attrs or self.place()} ins({', '.join(o.name for o in operands)} "
                  f": {types}) outs({out} : {t}) -> {t}")
        return self.finish(name, dtype, out_shape, all(o.exact for o in operands), target)

    # --- Convolution and pooling -----------------------------------------

    def linalg_conv(self):
        kind = self.rng.choice(["conv_2d_nhwc_hwcf", "conv_2d_nchw_fchw",
                                "depthwise_conv_2d_nhwc_hwc", "pooling_nhwc_max",
                                "pooling_nhwc_sum"])
        dtype = self.rng.choice(self.gen_dtypes())
        s = [self.rng.randint(1, 2), self.rng.randint(1, 2)]
        dil = [self.rng.randint(1, 2), self.rng.randint(1, 2)]
        kh, kw = self.rng.randint(1, 3), self.rng.randint(1, 3)
        oh, ow = self.rng.randint(1, 3), self.rng.randint(1, 3)
        h = s[0] * (oh - 1) + dil[0] * (kh - 1) + 1 + self.rng.randint(0, s[0] - 1)
        w = s[1] * (ow - 1) + dil[1] * (kw - 1) + 1 + self.rng.randint(0, s[1] - 1)
        n, c, f = self.rng.randint(1, 2), self.rng.randint(1, 3), self.rng.randint(1, 3)
        st = lambda v: (v, None)  # noqa: E731
        attrs = (f" {{strides = dense<[{s[0]}, {s[1]}]> : tensor<2xi64>, "
                 f"dilations = dense<[{dil[0]}, {dil[1]}]> : tensor<2xi64>{self.affinity_entry()}}}")
        if kind == "conv_2d_nhwc_hwcf":
            shapes = [(n, h, w, c), (kh, kw, c, f)]
            out = (n, oh, ow, f)
        elif kind == "conv_2d_nchw_fchw":
            shapes = [(n, c, h, w), (f, c, kh, kw)]
            out = (n, f, oh, ow)
        elif kind == "depthwise_conv_2d_nhwc_hwc":
            shapes = [(n, h, w, c), (kh, kw, c)]
            out = (n, oh, ow, c)
        else:
            shapes = [(n, h, w, c)]
            out = (n, oh, ow, c)
        operands = [self.source(tuple(map(st, x)), dtype) for x in shapes]
        if kind.startswith("pooling"):
            window = self.gen.fresh("w")
            wt = self.shape_text((st(kh), st(kw)), dtype)
            self.emit(f"{window} = tensor.empty() : {wt}")
            operands.append(Side(window, dtype, (st(kh), st(kw)), True))
        return self.contract(kind, operands, tuple(map(st, out)), dtype, attrs)

    # --- Reshapes ---------------------------------------------------------

    def linalg_reshape(self, anchor=None):
        anchor = anchor or self.anchor(rank=(1, 2, 3, 4))
        if anchor is None:
            anchor = self.source((self.new_dim(), self.new_dim()), self.rng.choice(self.gen_dtypes()))
        shape = anchor.shape
        t = self.shape_text(shape, anchor.dtype)
        name = self.gen.fresh("rs")
        origin = anchor.origin
        if len(shape) >= 2 and (len(shape) == 4 or self.rng.random() < 0.5):
            # Collapse two adjacent dims (at most one of them dynamic).
            # Both static, or a dynamic one and a static 1 (the result is
            # then that dynamic dim, whose size is known).
            candidates = [k for k in range(len(shape) - 1)
                          if (shape[k][1] is None and shape[k + 1][1] is None)
                          or shape[k] == (1, None) or shape[k + 1] == (1, None)]
            if not candidates:
                return None
            k = self.rng.choice(candidates)
            groups = [[i] for i in range(k)] + [[k, k + 1]] + [[i] for i in range(k + 2, len(shape))]
            a, b = shape[k], shape[k + 1]
            merged = (a[0] * b[0], a[1] if a[1] is not None else b[1])
            new = shape[:k] + (merged,) + shape[k + 2:]
            text = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
            out_t = self.shape_text(new, anchor.dtype)
            self.emit(f"{name} = tensor.collapse_shape {anchor.name} [{text}]{self.place()} "
                      f": {t} into {out_t}")
        else:
            # Expand one dim into two: a static factorization, or a unit dim.
            k = self.rng.randrange(len(shape))
            size, pidx = shape[k]
            factors = [f for f in range(2, size) if size % f == 0] if pidx is None else []
            if factors and self.rng.random() < 0.6:
                f = self.rng.choice(factors)
                parts = [(f, None), (size // f, None)]
            else:
                parts = [(1, None), shape[k]] if self.rng.random() < 0.5 else [shape[k], (1, None)]
            new = shape[:k] + tuple(parts) + shape[k + 1:]
            groups, i = [], 0
            for j in range(len(shape)):
                width = 2 if j == k else 1
                groups.append(list(range(i, i + width)))
                i += width
            text = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
            sizes = [str(s_) if p is None else self.dim_value(p) for s_, p in new]
            out_t = self.shape_text(new, anchor.dtype)
            self.emit(f"{name} = tensor.expand_shape {anchor.name} [{text}] output_shape "
                      f"[{', '.join(sizes)}]{self.place()} : {t} into {out_t}")
        return self.result(name, anchor.dtype, new, anchor.exact, origin=origin)

    # --- Chains: elementwise producers and consumers of a contraction -----

    def linalg_chain(self):
        """x -> elementwise ops -> contraction (or reduction) -> elementwise
        ops (a bias, a ReLU): what dispatch formation fuses once it does;
        until then, one dispatch each."""
        dtype = self.rng.choice(self.gen_dtypes())
        d = self.new_dim
        kind = self.rng.choice(["matmul", "batch_matmul", "matvec", "generic_reduction"])
        if kind == "matmul":
            m, k, n_ = d(), d(), d()
            shapes, out_shape = [(m, k), (k, n_)], (m, n_)
        elif kind == "batch_matmul":
            b, m, k, n_ = d(1, 2), d(), d(), d()
            shapes, out_shape = [(b, m, k), (b, k, n_)], (b, m, n_)
        elif kind == "matvec":
            m, k = d(), d()
            shapes, out_shape = [(m, k), (k,)], (m,)
        else:
            m, k = d(), d()
            shapes, out_shape = [(m, k)], (m,)
        operands = []
        for s in shapes:
            x = self.source(tuple(s), dtype)
            for _ in range(self.rng.randint(0, 2)):
                x = self.elementwise_shaped(x)
            operands.append(x)
        if kind == "generic_reduction":
            result = self.named_reduce(operands[0]) if self.rng.random() < 0.5 else \
                self.linalg_generic(operands[0])
        else:
            result = self.contract(kind, operands, out_shape, dtype)
        if result is None:
            return
        for _ in range(self.rng.randint(1, 2)):
            result = self.elementwise_shaped(result)

    def elementwise_shaped(self, x):
        """An elementwise op on the whole tensor `x` (any shape): arith,
        or a math function on floats."""
        t = self.shape_text(x.shape, x.dtype)
        name = self.gen.fresh("t")
        exact = x.exact
        if x.dtype.startswith("f"):
            ops = ["addf", "subf", "mulf", "maximumf", "minimumf", "negf", "relu"]
            if "math_ops" in self.features:
                ops += ["tanh", "exp"]
        else:
            ops = ["addi", "subi", "muli", "andi", "xori", "maxsi", "minsi"]
        op = self.rng.choice(ops)
        if op == "negf":
            self.emit(f"{name} = arith.negf {x.name}{self.place()} : {t}")
        elif op in ("tanh", "exp"):
            if op == "exp":
                a = self.gen.fresh("t")
                self.emit(f"{a} = math.absf {x.name} : {t}")
                b = self.gen.fresh("t")
                self.emit(f"{b} = arith.negf {a} : {t}")
                self.emit(f"{name} = math.exp {b}{self.place()} : {t}")
            else:
                self.emit(f"{name} = math.tanh {x.name}{self.place()} : {t}")
            exact = False
        elif op == "relu":
            zero = self.zeros(x)
            self.emit(f"{name} = arith.maximumf {x.name}, {zero}{self.place()} : {t}")
        else:
            if len(x.shape) >= 2 and self.rng.random() < 0.4:
                # A bias: a broadcast of a smaller value.
                bias = self.source(x.shape[1:], x.dtype)
                other = self.broadcast_to(bias, x.shape, 0)
            else:
                other = self.source(x.shape, x.dtype)
            self.emit(f"{name} = arith.{op} {x.name}, {other.name}{self.place()} : {t}")
            exact = exact and other.exact
        return self.result(name, x.dtype, x.shape, exact)

    def zeros(self, x):
        t = self.shape_text(x.shape, x.dtype)
        name = self.gen.fresh("z")
        if any(p is not None for _, p in x.shape):
            empty = self.empty_of(x.shape, x.dtype)
            zero = self.constant(x.dtype, 0.0)
            self.emit(f"{name} = linalg.fill ins({zero} : {x.dtype}) outs({empty} : {t}) -> {t}")
        else:
            self.emit(f"{name} = arith.constant dense<0.0> : {t}")
        return name

    def broadcast_to(self, value, shape, at):
        out = self.empty_of(shape, value.dtype)
        name = self.gen.fresh("b")
        self.emit(f"{name} = linalg.broadcast ins({value.name} : "
                  f"{self.shape_text(value.shape, value.dtype)}) outs({out} : "
                  f"{self.shape_text(shape, value.dtype)}) dimensions = [{at}]")
        return Side(name, value.dtype, shape, value.exact)
