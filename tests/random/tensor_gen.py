"""The tensor-op steps of generate.py's tensor functions (issues 14 and 15):
element types i1, f16 and bf16, `tensor.pad`, `concat`, `from_elements`,
`splat`, `bitcast`, `cast`, `extract`, and slices (`extract_slice` /
`insert_slice`, static and dynamic offsets and sizes, unit and non-unit
strides, constant or computed at run time, tiles inserted into a tensor
an `scf.for` carries).

Like linalg_gen.py, these steps work on `Side` values (any shape, the
program's too) and make new Sides; a result of the program's shape and of
one of generate.TENSOR_DTYPES joins the ordinary values. Values of the new
element types (NEW_DTYPES) stay Sides: only these steps read them (and
@main may return them), the ordinary and linalg steps never see them.

What the compiler refuses is never generated (tests/e2e/tensor_ops.mlir):
only static dims are padded, and a pad's low padding is static or, where
the source stays one contiguous range of the result, a known index; a
concat joins along a static dim, and, when an operand has a dynamic dim,
only along one after dims of static size 1. A slice's dynamic size is a value the generator knows
(`minui(x | k, k)` = k for a scalar x the program reads at run time), and
the slice is `tensor.cast` to its static type at once, so no Side has a
dynamic dim that is not one of the program's.

f16 and bf16 arithmetic is computed in f32 and rounded once per op, as
NumPy's float16 does (reference.py emulates bf16 on float32 arrays,
rounding to nearest even after every op of a bf16 result); only f32 is
truncated to them (an f64 source could round twice).
"""
from linalg_gen import Side

NEW_DTYPES = ("i1", "f16", "bf16")
HALF = ("f16", "bf16")
# Same-width integer type of each float (tensor.bitcast).
BITCAST = {"f32": "i32", "f64": "i64", "f16": "i16", "bf16": "i16"}


def is_float(dtype):
    return dtype in ("f16", "bf16", "f32", "f64")


class TensorSteps:
    """Mixed into generate.TensorFunctionBuilder."""

    def tensor_kinds(self):
        f = self.features
        kinds = []
        for name, kind, weight in (("tensor_pad", "pad", 1), ("tensor_concat", "concat", 1),
                                   ("tensor_from_elements", "from_elements", 1),
                                   ("tensor_splat", "splat", 1), ("tensor_cast", "cast", 1),
                                   ("tensor_extract", "extract", 1),
                                   ("types_half", "half", 2), ("types_i1", "mask", 2),
                                   ("slices", "slice", 2), ("slices", "insert", 2),
                                   ("loop_insert_slice", "loop_insert", 1)):
            if name in f:
                kinds += [kind] * weight
        if self.gen.dynamic and "linalg_dynamic" not in f:
            kinds = [k for k in kinds if k in ("extract", "splat")]
        if self.depth and self.gen.devices and "two_device_region_tensor_ops" not in f:
            return []  # with the feature off (on by default since the walk's device sets)
        if "loop_insert" in kinds and (not self.gen.regions or self.depth >= 1):
            kinds = [k for k in kinds if k != "loop_insert"]
        return kinds

    def op_tensor(self):
        kind = self.rng.choice(self.tensor_kinds())
        getattr(self, "tensor_" + kind)()

    # --- Helpers -----------------------------------------------------------

    def new_types(self):
        f = self.features
        out = []
        if "types_half" in f:
            out += ["f16", "bf16"]
        if "types_i1" in f:
            out.append("i1")
        return out

    def any_side(self, dtypes=None, rank=(1, 2, 3), static_only=False):
        """A Side of one of `dtypes` (any, the new types too), or None."""
        pool = [s for s in self.side_values() + [s for s in self.side if s.dtype in NEW_DTYPES]
                if (dtypes is None or s.dtype in dtypes) and len(s.shape) in rank
                and (not static_only or all(p is None for _, p in s.shape))]
        if not pool:
            return None
        return self.rng.choice(pool[-4:] if self.rng.random() < 0.6 else pool)

    def new_result(self, name, dtype, shape, exact, origin=None):
        if dtype in NEW_DTYPES:
            side = Side(name, dtype, shape, exact, origin=None)
            self.side.append(side)
            return side
        return self.result(name, dtype, shape, exact, origin=origin)

    def view_result(self, name, dtype, shape, source, exact=None):
        """A result that may be a view of `source`'s storage (a slice, a
        bitcast, a cast): it shares its storage, and inside a region it is
        not written in place nor carried (like what comes from outside)."""
        exact = source.exact if exact is None else exact
        origin = source.origin if dtype not in NEW_DTYPES else None
        value = self.new_result(name, dtype, shape, exact, origin=origin)
        if value.origin is not None and source.origin is None:
            value.origin.storage.unknown_owner = True
        if value.origin is not None and self.depth:
            value.origin.storage.unknown_owner = True
            self.frozen.append(value.origin)
        return value

    def scalar_value(self, dtype):
        """A scalar of `dtype` (a constant or one in scope)."""
        if dtype == "i1":
            ints = [(n, t) for n, t in self.scalars if t == "i1"]
            if ints and self.rng.random() < 0.5:
                return self.rng.choice(ints)[0]
            return self.constant("i1")
        if dtype in HALF:
            return self.constant(dtype, self.rng.randint(-12, 12) / 4)
        return self.scalar_of(dtype)

    def static_shape(self, rank=None):
        rank = rank or self.rng.randint(1, 3)
        return tuple((self.rng.randint(1, 4), None) for _ in range(rank))

    def known_index(self, value):
        """An index SSA value equal to `value`, computed from an integer
        scalar argument of @main where there is one (so nothing folds it;
        the walk is given the arguments' values and evaluates it)."""
        name = self.gen.fresh("c")
        self.emit(f"{name} = arith.constant {value} : index")
        ints = self.arguments
        if not ints or self.rng.random() < 0.3 or "scalar_slice_sizes" not in self.features:
            return name
        scalar, type_ = self.rng.choice(ints)
        cast, ored, out = self.gen.fresh("x"), self.gen.fresh("x"), self.gen.fresh("x")
        self.emit(f"{cast} = arith.index_cast {scalar} : {type_} to index")
        self.emit(f"{ored} = arith.ori {cast}, {name} : index")
        self.emit(f"{out} = arith.minui {ored}, {name} : index")
        return out

    def bounded_index(self, limit):
        """An index in [0, limit]: a constant, an induction variable or a
        scalar, clamped."""
        name = self.gen.fresh("c")
        self.emit(f"{name} = arith.constant {limit} : index")
        sources = [(i, "index") for i in self.indices]
        sources += [(n, t) for n, t in self.scalars if t in ("i8", "i16", "i32", "i64")]
        if not sources or self.rng.random() < 0.3:
            value = self.gen.fresh("c")
            self.emit(f"{value} = arith.constant {self.rng.randint(0, limit)} : index")
            return value
        scalar, type_ = self.rng.choice(sources)
        if type_ != "index":
            cast = self.gen.fresh("x")
            self.emit(f"{cast} = arith.index_cast {scalar} : {type_} to index")
            scalar = cast
        mask, masked, out = self.gen.fresh("c"), self.gen.fresh("x"), self.gen.fresh("x")
        self.emit(f"{mask} = arith.constant 3 : index")
        self.emit(f"{masked} = arith.andi {scalar}, {mask} : index")
        self.emit(f"{out} = arith.minui {masked}, {name} : index")
        return out

    # --- Element types -----------------------------------------------------

    def half_value(self, shape=None):
        """An f16 / bf16 Side: one there is, a truncation of an f32 value,
        a new argument of @main or a fill."""
        dtype = self.rng.choice(HALF)
        pool = [s for s in self.side if s.dtype == dtype and (shape is None or s.shape == shape)]
        if pool and self.rng.random() < 0.5:
            return self.rng.choice(pool[-3:])
        if shape is None:
            f32 = self.any_side(("f32",), rank=(1, 2, 3))
            if f32 is not None and self.rng.random() < 0.6:
                name = self.gen.fresh("h")
                self.emit(f"{name} = arith.truncf {f32.name}{self.place()} : "
                          f"{self.shape_text(f32.shape, 'f32')} to "
                          f"{self.shape_text(f32.shape, dtype)}")
                return self.new_result(name, dtype, f32.shape, f32.exact)
            shape = self.static_shape() if not self.gen.dynamic or self.rng.random() < 0.5 \
                else self.program_shape()
        return self.source(shape, dtype)

    def tensor_half(self):
        """Elementwise f16 / bf16 ops (computed in f32, rounded per op), and
        maybe an extf back to f32 or f64."""
        x = self.half_value()
        dtype, shape = x.dtype, x.shape
        t = self.shape_text(shape, dtype)
        for _ in range(self.rng.randint(1, 3)):
            name = self.gen.fresh("h")
            op = self.rng.choice(["addf", "subf", "mulf", "maximumf", "minimumf", "negf", "absf"])
            if op in ("negf", "absf"):
                dialect = "arith" if op == "negf" else "math"
                self.emit(f"{name} = {dialect}.{op} {x.name}{self.place()} : {t}")
                exact = x.exact
            else:
                y = self.source(shape, dtype) if self.rng.random() < 0.7 else x
                a, b = (x, y) if self.rng.random() < 0.5 else (y, x)
                self.emit(f"{name} = arith.{op} {a.name}, {b.name}{self.place()} : {t}")
                exact = x.exact and y.exact
            x = self.new_result(name, dtype, shape, exact)
        if self.rng.random() < 0.4:
            wide = self.rng.choice(["f32", "f64"])
            name = self.gen.fresh("h")
            self.emit(f"{name} = arith.extf {x.name}{self.place()} : {t} to "
                      f"{self.shape_text(shape, wide)}")
            self.new_result(name, wide, shape, x.exact)

    def tensor_mask(self):
        """An i1 mask from a comparison, bit ops on masks, and a select (or
        an extui to i8 / i32)."""
        x = self.any_side([d for d in self.operand_types() if d != "i1"])
        if x is None or not x.exact:
            x = self.source(self.static_shape(), self.rng.choice(["i32", "f32"]))
        shape, dtype = x.shape, x.dtype
        t = self.shape_text(shape, dtype)
        y = self.source(shape, dtype)
        if not y.exact:
            y = x
        name = self.gen.fresh("m")
        if is_float(dtype):
            predicate = self.rng.choice(["oeq", "one", "olt", "ole", "ogt", "oge"])
            self.emit(f"{name} = arith.cmpf {predicate}, {x.name}, {y.name}{self.place()} : {t}")
        else:
            predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                         "ugt", "uge"])
            self.emit(f"{name} = arith.cmpi {predicate}, {x.name}, {y.name}{self.place()} : {t}")
        mask = self.new_result(name, "i1", shape, True)
        mt = self.shape_text(shape, "i1")
        for _ in range(self.rng.randint(0, 2)):
            other = self.source(shape, "i1")
            name = self.gen.fresh("m")
            op = self.rng.choice(["andi", "ori", "xori"])
            self.emit(f"{name} = arith.{op} {mask.name}, {other.name}{self.place()} : {mt}")
            mask = self.new_result(name, "i1", shape, True)
        choice = self.rng.random()
        name = self.gen.fresh("m")
        if choice < 0.6 and dtype not in HALF:
            b = self.source(shape, dtype)
            self.emit(f"{name} = arith.select {mask.name}, {x.name}, {b.name}{self.place()} "
                      f": {mt}, {t}")
            self.new_result(name, dtype, shape, x.exact and b.exact)
        elif choice < 0.8:
            wide = self.rng.choice(["i8", "i32"])
            self.emit(f"{name} = arith.extui {mask.name}{self.place()} : {mt} to "
                      f"{self.shape_text(shape, wide)}")
            self.new_result(name, wide, shape, True)

    # --- tensor ops --------------------------------------------------------

    def operand_types(self):
        return ["i8", "i16", "i32", "i64", "f32", "f64"] + self.new_types()

    def tensor_pad(self):
        x = self.any_side(self.operand_types())
        if x is None:
            x = self.source(self.static_shape(), self.rng.choice(self.operand_types()))
        if all(p is not None for _, p in x.shape):
            return
        # Now and then a low padding computed at run time, where the source
        # stays one contiguous range of the result: only the first dim that
        # is not a static 1 is padded (the pad's result is dynamic there
        # and cast to its static shape).
        partial = next((d for d, (size, p) in enumerate(x.shape) if p is not None or size != 1),
                       len(x.shape) - 1)
        dynamic_low = x.shape[partial][1] is None and self.rng.random() < 0.3
        lows, highs, shape = [], [], []
        for d, (size, p) in enumerate(x.shape):
            padded = p is None and (not dynamic_low or d == partial)
            lo, hi = (self.rng.randint(0, 2), self.rng.randint(0, 2)) if padded else (0, 0)
            lows.append(lo)
            highs.append(hi)
            shape.append((size + lo + hi, p))
        low_text = [str(lo) for lo in lows]
        result_shape = tuple(shape)
        if dynamic_low:
            low_text[partial] = self.known_index(lows[partial])
            result_shape = tuple((size, "?" if d == partial else p)
                                 for d, (size, p) in enumerate(shape))
        value = self.scalar_value(x.dtype)
        args = ", ".join(f"%pi{self.gen.fresh('')[1:]}: index" for _ in x.shape)
        name = self.gen.fresh("p")
        self.emit(f"{name} = tensor.pad {x.name} low[{', '.join(low_text)}] "
                  f"high[{', '.join(map(str, highs))}] {{ ^bb0({args}): tensor.yield {value} : "
                  f"{x.dtype} }}{self.place()} : {self.shape_text(x.shape, x.dtype)} to "
                  f"{self.shape_text(result_shape, x.dtype)}")
        if dynamic_low:
            cast = self.gen.fresh("p")
            self.emit(f"{cast} = tensor.cast {name}{self.place()} : "
                      f"{self.shape_text(result_shape, x.dtype)} to "
                      f"{self.shape_text(tuple(shape), x.dtype)}")
            name = cast
        self.new_result(name, x.dtype, tuple(shape), x.exact)

    def tensor_concat(self):
        x = self.any_side(self.operand_types())
        if x is None:
            x = self.source(self.static_shape(), self.rng.choice(self.operand_types()))
        dynamic = any(p is not None for _, p in x.shape)
        # With a dynamic dim, an axis whose inputs are contiguous ranges of
        # the result: after dims of static size 1 only.
        axes = [d for d, (_, p) in enumerate(x.shape)
                if p is None and (not dynamic or all(q is None and size == 1
                                                     for size, q in x.shape[:d]))]
        if not axes:
            return
        axis = self.rng.choice(axes)
        operands = [x]
        for _ in range(self.rng.randint(1, 2)):
            shape = list(x.shape)
            shape[axis] = (self.rng.randint(1, 3), None)
            operands.append(self.source(tuple(shape), x.dtype))
        self.rng.shuffle(operands)
        out = list(x.shape)
        out[axis] = (sum(o.shape[axis][0] for o in operands), None)
        name = self.gen.fresh("cat")
        types = ", ".join(self.shape_text(o.shape, x.dtype) for o in operands)
        self.emit(f"{name} = tensor.concat dim({axis}) {', '.join(o.name for o in operands)}"
                  f"{self.place()} : ({types}) -> {self.shape_text(tuple(out), x.dtype)}")
        self.new_result(name, x.dtype, tuple(out), all(o.exact for o in operands))

    def tensor_from_elements(self):
        dtype = self.rng.choice(self.operand_types())
        shape = self.static_shape(self.rng.choice([1, 1, 2]))
        count = 1
        for s, _ in shape:
            count *= s
        values = [self.scalar_value(dtype) for _ in range(min(count, 3))]
        elements = [self.rng.choice(values) for _ in range(count)]
        name = self.gen.fresh("fe")
        self.emit(f"{name} = tensor.from_elements {', '.join(elements)}{self.place()} : "
                  f"{self.shape_text(shape, dtype)}")
        self.new_result(name, dtype, shape, False)

    def tensor_splat(self):
        dtype = self.rng.choice(self.operand_types())
        shape = self.program_shape() if self.rng.random() < 0.5 else self.static_shape()
        dims = [self.dim_value(p) for _, p in shape if p is not None]
        value = self.scalar_value(dtype)
        name = self.gen.fresh("sp")
        sizes = f"[{', '.join(dims)}]" if dims else ""
        self.emit(f"{name} = tensor.splat {value}{sizes}{self.place()} : "
                  f"{self.shape_text(shape, dtype)}")
        self.new_result(name, dtype, shape, False)

    def tensor_cast(self):
        x = self.any_side([d for d in self.operand_types() if d in BITCAST])
        # (Only an exact float: the bits of one computed within a tolerance
        # are compared exactly.)
        if x is not None and x.exact and (self.rng.random() < 0.5 or
                                          all(p is None for _, p in x.shape)):
            # Bits of a float as the integer of its width (a view).
            name = self.gen.fresh("bc")
            to = BITCAST[x.dtype]
            self.emit(f"{name} = tensor.bitcast {x.name}{self.place()} : "
                      f"{self.shape_text(x.shape, x.dtype)} to {self.shape_text(x.shape, to)}")
            self.view_result(name, to, x.shape, x, exact=True)
            return
        x = self.any_side(self.operand_types())
        if x is None or all(p is None for _, p in x.shape):
            return
        # A dynamic shape cast to the static one it has at run time.
        shape = tuple((s, None) for s, _ in x.shape)
        name = self.gen.fresh("cs")
        self.emit(f"{name} = tensor.cast {x.name}{self.place()} : "
                  f"{self.shape_text(x.shape, x.dtype)} to {self.shape_text(shape, x.dtype)}")
        self.view_result(name, x.dtype, shape, x)

    def tensor_extract(self):
        """One element of a Side read back on the host."""
        if self.depth:
            return
        x = self.any_side([d for d in self.operand_types() if d != "bf16"])
        if x is None:
            return
        indices = []
        for size, p in x.shape:
            name = self.gen.fresh("c")
            self.emit(f"{name} = arith.constant {self.rng.randrange(1 if p is not None else size)}"
                      f" : index")
            indices.append(name)
        name = self.gen.fresh("x")
        self.emit(f"{name} = tensor.extract {x.name}[{', '.join(indices)}]{self.place()} : "
                  f"{self.shape_text(x.shape, x.dtype)}")
        if x.dtype in ("f32", "f64"):
            self.float_scalars.append((name, x.dtype))
        elif x.dtype != "f16":
            self.scalars.append((name, x.dtype))
        if x.exact or x.dtype == "f16":
            self.reads.append((name, x.dtype))

    # --- Slices ------------------------------------------------------------

    def slice_params(self, shape, dynamic_ok=True):
        """(offsets, sizes, strides, result shape) of a slice of `shape`:
        only static dims are cut (a dynamic one is taken whole, its size
        `tensor.dim` of an argument). Offsets are computed at run time
        where the slice is contiguous (leading unit dims, one dim cut with
        stride 1, every later dim whole; a dynamic dim counted as cut: its
        size is not the sliced tensor's own `tensor.dim`) or the dims after
        the first are static (a flat range); dynamic_strides makes the
        strides and offsets of other strided slices dynamic too."""
        dynamic = dynamic_ok and "dynamic_slices" in self.features
        strided = "strided_slices" in self.features
        picks = []  # (stride, n) of each static dim, None for a dynamic one
        for size, p in shape:
            if p is not None:
                picks.append(None)
                continue
            stride = 2 if strided and size >= 3 and self.rng.random() < 0.3 else 1
            picks.append((stride, self.rng.randint(1, (size - 1) // stride + 1)))
        contiguous, seen_cut = True, False
        for (size, p), pick in zip(shape, picks):
            if pick is None:
                # Dynamic: cut with stride 1 whatever its size at run time.
                contiguous = contiguous and not seen_cut
                seen_cut = True
                continue
            stride, n = pick
            if seen_cut and pick != (1, size):
                contiguous = False
            if n != 1 and not seen_cut:
                seen_cut = True
                contiguous = contiguous and stride == 1
        if not contiguous and "strided_dynamic_tiles" not in self.features:
            # A copy kernel: some static dim must be cut, or its maps are
            # all the identity over dynamic dims (known failure, README.md:
            # an insert does not compile, an extract checks the wrong
            # extents); and its sizes are static.
            dynamic = False
            cut = [k for k, (sz, p) in enumerate(shape) if picks[k] is not None
                   and picks[k] != (1, sz)]
            if not cut:
                wide = [k for k, (sz, p) in enumerate(shape) if p is None and sz >= 2]
                if not wide:
                    return None
                k = self.rng.choice(wide)
                picks[k] = (1, shape[k][0] - 1)
        # A strided slice takes dynamic offsets where the dims after the
        # first are static (a copy kernel over the contiguous range it
        # spans in the tensor taken as one dim).
        flat = all(p is None for _, p in shape[1:])
        offsets, sizes, strides, out = [], [], [], []
        for (size, p), pick in zip(shape, picks):
            if pick is None:
                offsets.append("0")
                sizes.append(self.dim_value(p))
                strides.append("1")
                out.append((size, p))
                continue
            stride, n = pick
            limit = size - ((n - 1) * stride + 1)
            if dynamic and (contiguous or flat) and limit > 0 and self.rng.random() < 0.4:
                offsets.append(self.bounded_index(limit))
            else:
                offsets.append(str(self.rng.randint(0, limit)))
            if dynamic and contiguous and self.rng.random() < 0.2:
                sizes.append(self.known_index(n))
                out.append((n, "known"))
            else:
                sizes.append(str(n))
                out.append((n, None))
            strides.append(str(stride))
        if not contiguous:
            self.dynamic_strides(picks, offsets, strides)
        return offsets, sizes, strides, out

    def dynamic_strides(self, picks, offsets, strides):
        """Now and then the constant strides and offsets of a strided slice's
        cut dims as index values computed from an integer scalar argument
        of @main (the same numbers at run time): a copy kernel taking them
        as inputs. Its choices draw from the generator's late stream, so
        programs without it are unchanged."""
        late = self.gen.late_rng
        if ("dynamic_strides" not in self.features or not self.arguments
                or late.random() < 0.5):
            return
        for k, pick in enumerate(picks):
            if pick is None:
                continue
            if late.random() < 0.6:
                strides[k] = self.runtime_index(int(strides[k]), late)
            if not offsets[k].startswith("%") and late.random() < 0.5:
                offsets[k] = self.runtime_index(int(offsets[k]), late)

    def runtime_index(self, value, rng):
        """An index SSA value equal to `value`, computed from an integer
        scalar argument of @main, `rng` choosing which."""
        scalar, type_ = rng.choice(self.arguments)
        const, cast, ored, out = (self.gen.fresh(p) for p in ("c", "x", "x", "x"))
        self.emit(f"{const} = arith.constant {value} : index")
        self.emit(f"{cast} = arith.index_cast {scalar} : {type_} to index")
        self.emit(f"{ored} = arith.ori {cast}, {const} : index")
        self.emit(f"{out} = arith.minui {ored}, {const} : index")
        return out

    @staticmethod
    def slice_text(offsets, sizes, strides):
        return (f"[{', '.join(offsets)}] [{', '.join(sizes)}] [{', '.join(strides)}]")

    def tensor_slice(self):
        """tensor.extract_slice of a value (contiguous: a view; strided: a
        copy kernel), maybe rank-reducing a unit dim, cast to a static
        type where a size was dynamic."""
        x = self.any_side(self.operand_types(), rank=(1, 2, 3, 4))
        if x is None:
            x = self.source(self.static_shape(), self.rng.choice(self.operand_types()))
        params = self.slice_params(x.shape)
        if params is None:
            return None
        offsets, sizes, strides, out = params
        # The type the op gives: a dynamic size is `?`.
        op_shape = tuple((s, p) for s, p in out)
        result_text = "tensor<" + "".join(
            ("?" if p is not None else str(s)) + "x" for s, p in op_shape) + x.dtype + ">"
        unit = [k for k, (s, p) in enumerate(op_shape) if s == 1 and p is None]
        if unit and len(op_shape) > 1 and self.rng.random() < 0.3:
            drop = self.rng.choice(unit)
            op_shape = op_shape[:drop] + op_shape[drop + 1:]
            result_text = "tensor<" + "".join(
                ("?" if p is not None else str(s)) + "x" for s, p in op_shape) + x.dtype + ">"
        name = self.gen.fresh("sl")
        self.emit(f"{name} = tensor.extract_slice {x.name}{self.slice_text(offsets, sizes, strides)}"
                  f"{self.place()} : {self.shape_text(x.shape, x.dtype)} to {result_text}")
        if any(p == "known" for _, p in op_shape):
            static = tuple((s, None if p == "known" else p) for s, p in op_shape)
            cast = self.gen.fresh("cs")
            self.emit(f"{cast} = tensor.cast {name} : {result_text} to "
                      f"{self.shape_text(static, x.dtype)}")
            name, op_shape = cast, static
        return self.view_result(name, x.dtype, tuple(op_shape), x)

    def tile_for(self, shape, dtype):
        """A value of `shape` to insert: a slice, a source, a fill or an
        elementwise op on one."""
        pool = [s for s in self.side_values(dtype if dtype not in NEW_DTYPES else None, shape)
                + [s for s in self.side if s.dtype == dtype and s.shape == shape]
                if s.dtype == dtype]
        if pool and self.rng.random() < 0.5:
            return self.rng.choice(pool[-3:])
        value = self.source(shape, dtype)
        if self.rng.random() < 0.5 and dtype not in ("i1",):
            op = ("addf" if is_float(dtype) else "addi")
            other = self.source(shape, dtype)
            name = self.gen.fresh("tl")
            self.emit(f"{name} = arith.{op} {value.name}, {other.name}{self.place()} : "
                      f"{self.shape_text(shape, dtype)}")
            value = self.new_result(name, dtype, shape, value.exact and other.exact)
        return value

    def tensor_insert(self):
        """insert_slice of 1-3 tiles into a destination: a fresh fill (or
        empty, when the tiles cover it) or a value made here."""
        dtype = self.rng.choice(self.operand_types())
        shape = self.static_shape()
        if self.gen.dynamic and self.rng.random() < 0.4:
            shape = self.program_shape()
        if all(s == 1 for s, p in shape if p is None) and self.rng.random() < 0.7:
            shape = tuple((s + 2 if p is None else s, p) for s, p in shape)
        dest = self.fresh_fill(shape, dtype)
        t = self.shape_text(shape, dtype)
        for _ in range(self.rng.randint(1, 3)):
            params = self.slice_params(shape)
            if params is None:
                break
            offsets, sizes, strides, out = params
            tile_shape = tuple((s, None if p == "known" else p) for s, p in out)
            tile = self.tile_for(tile_shape, dtype)
            tile_text = self.shape_text(tile_shape, dtype)
            if any(p == "known" for _, p in out):
                dyn = tuple((s, "known" if p == "known" else p) for s, p in out)
                cast = self.gen.fresh("cs")
                dyn_text = "tensor<" + "".join(
                    ("?" if p is not None else str(s)) + "x" for s, p in dyn) + dtype + ">"
                self.emit(f"{cast} = tensor.cast {tile.name} : {tile_text} to {dyn_text}")
                tile_name, tile_text = cast, dyn_text
            else:
                tile_name = tile.name
            name = self.gen.fresh("ins")
            self.emit(f"{name} = tensor.insert_slice {tile_name} into {dest.name}"
                      f"{self.slice_text(offsets, sizes, strides)}{self.place()} : "
                      f"{tile_text} into {t}")
            dest = self.new_result(name, dtype, shape, dest.exact and tile.exact,
                                   origin=dest.origin)
        return dest

    def tensor_loop_insert(self):
        """scf.for over the row blocks of a destination the loop carries
        (a fresh fill), each iteration making a tile (from a slice of a
        value from outside, read by a dispatch, or a fill) and inserting it
        at rows i * T: insert_slice into a loop-carried tensor."""
        dtype = self.rng.choice(["i32", "f32", "i64", "f64"] + [d for d in self.new_types()
                                                                 if d != "i1"])
        tile_rows = self.rng.randint(1, 2)
        trips = self.rng.randint(1, 3)
        cols = self.rng.randint(1, 4)
        rows = tile_rows * trips + self.rng.randint(0, 1)
        shape = ((rows, None), (cols, None))
        tile_shape = ((tile_rows, None), (cols, None))
        t, tt = self.shape_text(shape, dtype), self.shape_text(tile_shape, dtype)
        init = self.fresh_fill(shape, dtype)
        # Carried, and used no more (generate.op_for says why).
        if init in self.side:
            self.side.remove(init)
        if init.origin in self.values:
            self.values.remove(init.origin)
        source = self.source(shape, dtype)
        lb, ub, one, step_rows = (self.gen.fresh("c") for _ in range(4))
        self.emit(f"{lb} = arith.constant 0 : index")
        self.emit(f"{ub} = arith.constant {trips} : index")
        self.emit(f"{one} = arith.constant 1 : index")
        self.emit(f"{step_rows} = arith.constant {tile_rows} : index")
        i, acc, result = self.gen.fresh("i"), self.gen.fresh("acc"), self.gen.fresh("l")
        self.emit(f"{result} = scf.for {i} = {lb} to {ub} step {one} iter_args({acc} = "
                  f"{init.name}) -> ({t}) {{")
        saved = self.enter(frozen=True)
        row = self.gen.fresh("x")
        self.emit(f"{row} = arith.muli {i}, {step_rows} : index")
        choice = self.rng.random()
        if choice < 0.6:
            # Rows of the outside value (a view) or of the carried one (a
            # view too, apart from where the tile goes only in general).
            src = source.name if choice < 0.45 else acc
            piece = self.gen.fresh("sl")
            self.emit(f"{piece} = tensor.extract_slice {src}[{row}, 0] [{tile_rows}, {cols}] "
                      f"[1, 1] : {t} to {tt}")
            op = "addf" if is_float(dtype) else "addi"
            tile = self.gen.fresh("tl")
            self.emit(f"{tile} = arith.{op} {piece}, {piece} : {tt}")
        else:
            e = self.gen.fresh("e")
            tile = self.gen.fresh("tl")
            self.emit(f"{e} = tensor.empty() : {tt}")
            self.emit(f"{tile} = linalg.fill ins({self.scalar_value(dtype)} : {dtype}) "
                      f"outs({e} : {tt}) -> {tt}")
        next_ = self.gen.fresh("ins")
        self.emit(f"{next_} = tensor.insert_slice {tile} into {acc}[{row}, 0] "
                  f"[{tile_rows}, {cols}] [1, 1] : {tt} into {t}")
        self.emit(f"scf.yield {next_} : {t}")
        self.leave(saved)
        self.emit("}")
        value = self.new_result(result, dtype, shape, source.exact)
        if value.origin is not None:
            value.origin.storage.unknown_owner = True  # a region's result
        return value


def tile_program(gen, program):
    """A whole @main of tiles (feature tile_programs): rows of an input read
    in place by dispatches (contiguous extract_slice) and tiles made by
    fills and dispatches inserted into one buffer, straight and in an
    scf.for carrying the buffer: no copy (tests/e2e/slices). Sets
    `program.expected_copies` to 0."""
    rng = gen.rng
    dtype = rng.choice(["f32", "i32", "f64", "i64"])
    rows, cols = rng.randint(2, 6), rng.randint(1, 4)
    tile = rng.randint(1, rows)
    count = rng.randint(1, 3)
    full = (count * tile, cols)
    lines = []
    names = iter(range(10 ** 6))

    def fresh(prefix):
        return f"%{prefix}{next(names)}"

    def tt(shape):
        return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"

    def const(value, type_=dtype):
        name = fresh("c")
        text = (f"{value}.0" if type_.startswith("f") else str(value)) if type_ != "index" \
            else str(value)
        lines.append(f"{name} = arith.constant {text} : {type_}")
        return name

    def filled(shape):
        e, name = fresh("e"), fresh("f")
        lines.append(f"{e} = tensor.empty() : {tt(shape)}")
        lines.append(f"{name} = linalg.fill ins({const(rng.randint(-3, 3))} : {dtype}) "
                     f"outs({e} : {tt(shape)}) -> {tt(shape)}")
        return name

    def kernel(source, shape):
        """A dispatch of `source` into a new tensor."""
        e, name, y = fresh("e"), fresh("g"), fresh("y")
        op = rng.choice(["add", "mul", "sub"]) + ("f" if dtype.startswith("f") else "i")
        ident = "affine_map<(d0, d1) -> (d0, d1)>"
        lines.append(f"{e} = tensor.empty() : {tt(shape)}")
        lines.append(f"{name} = linalg.generic {{indexing_maps = [{ident}, {ident}], "
                     f"iterator_types = [\"parallel\", \"parallel\"]}} ins({source} : "
                     f"{tt(shape)}) outs({e} : {tt(shape)}) {{")
        x = f"%in{next(names)}"
        lines.append(f"^bb0({x}: {dtype}, %out{next(names)}: {dtype}):")
        k = fresh("k")  # (inside the body: the reference's scope)
        value = rng.randint(1, 3)
        lines.append(f"  {k} = arith.constant {f'{value}.0' if dtype.startswith('f') else value}"
                     f" : {dtype}")
        lines.append(f"  {y} = arith.{op} {x}, {k} : {dtype}")
        lines.append(f"  linalg.yield {y} : {dtype}")
        lines.append(f"}} -> {tt(shape)}")
        return name

    def make_tile(offset):
        if rng.random() < 0.3:
            return filled((tile, cols))
        piece = fresh("sl")
        lines.append(f"{piece} = tensor.extract_slice %a[{offset}, 0] [{tile}, {cols}] [1, 1] : "
                     f"{tt((rows, cols))} to {tt((tile, cols))}")
        return kernel(piece, (tile, cols))

    # Straight: the tiles made first, then inserted, or each made and inserted.
    dest = filled(full)
    tiles = [make_tile(rng.randint(0, rows - tile)) for _ in range(count)] \
        if rng.random() < 0.5 else None
    for k in range(count):
        t = tiles[k] if tiles else make_tile(rng.randint(0, rows - tile))
        name = fresh("ins")
        lines.append(f"{name} = tensor.insert_slice {t} into {dest}[{k * tile}, 0] "
                     f"[{tile}, {cols}] [1, 1] : {tt((tile, cols))} into {tt(full)}")
        dest = name
    results = [dest]
    # In a loop carrying the buffer: tile i at rows i * tile.
    if rng.random() < 0.7:
        init = filled(full)
        lb, ub, one = const(0, "index"), const(count, "index"), const(1, "index")
        step, span = const(tile, "index"), const(rows - tile + 1, "index")
        i, acc, out = fresh("i"), fresh("acc"), fresh("l")
        lines.append(f"{out} = scf.for {i} = {lb} to {ub} step {one} iter_args({acc} = {init}) "
                     f"-> ({tt(full)}) {{")
        row, src = fresh("x"), fresh("x")
        lines.append(f"{row} = arith.muli {i}, {step} : index")
        lines.append(f"{src} = arith.remui {i}, {span} : index")
        t = make_tile(src)
        name = fresh("ins")
        lines.append(f"{name} = tensor.insert_slice {t} into {acc}[{row}, 0] [{tile}, {cols}] "
                     f"[1, 1] : {tt((tile, cols))} into {tt(full)}")
        lines.append(f"scf.yield {name} : {tt(full)}")
        lines.append("}")
        results.append(out)
    types = ", ".join(tt(full) for _ in results)
    body = "\n".join("    " + line for line in lines)
    program.text = (f"module {{\n  func.func @main(%a: {tt((rows, cols))}) -> ({types}) {{\n"
                    f"{body}\n    return {', '.join(results)} : {types}\n  }}\n}}\n")
    program.inputs = [([rows, cols], dtype)]
    program.expected_copies = 0
    return program
