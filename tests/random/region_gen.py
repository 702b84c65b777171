"""Structured regions in generate.py's tensor functions: `scf.for` and
`scf.while` carrying tensors (and a scalar), `scf.if` choosing between
tensors, their bodies a few steps on what they carry and on values from
outside. What a region may write in place, and which values a loop may
carry (owned ones, unless indeterminate_carried), follows the Storage of
each value (program_values.py). cf_gen.py writes some of them as blocks.
"""

from program_values import TENSOR_DTYPES, WIDTH, TensorValue


class RegionSteps:
    """Mixed into generate.TensorFunctionBuilder: the region ops among its
    steps (op_loop, op_while, op_if) and what they share."""

    def region_setup(self):
        """Definitions a region must not be the first to make (they would
        not be visible after it): the dynamic sizes."""
        if self.gen.dynamic:
            self.dynamic_dims()

    def enter(self, frozen):
        """A new scope: what the region defines stays in it."""
        saved = (self.values, self.scalars, self.float_scalars, self.reads, self.frozen,
                 self.indices, self.scalar_callees, self.side)
        self.values = list(self.values)
        self.side = list(self.side)
        self.scalars = list(self.scalars)
        self.float_scalars = list(self.float_scalars)
        self.reads = list(self.reads)
        self.indices = list(self.indices)
        if frozen:
            self.frozen = self.frozen + [v for v in self.values if v.defined]
        self.scalar_callees = []  # no scalar calls inside regions
        self.depth += 1
        return saved

    def leave(self, saved):
        self.depth -= 1
        inner = self.values
        (self.values, self.scalars, self.float_scalars, self.reads, self.frozen,
         self.indices, self.scalar_callees, self.side) = saved
        # Storage merged inside stays merged (an over-approximation).
        for v in self.values:
            for u in inner:
                if u is v:
                    v.storage = u.storage

    def region_steps(self, count):
        for _ in range(count):
            self.step()

    def yield_values(self, dtypes, own, bases=None):
        """Values of `dtypes` to yield, each computed in the region: one of
        `own` (what the region defined) or an elementwise op on the region's
        `bases[k]` (a loop's carried value) or on some value of the dtype.
        (A region yielding only what comes from outside folds to a select
        or to nothing.)"""
        names = []
        for k, dtype in enumerate(dtypes):
            pool = [v for v in self.defined(dtype) if v in own and v not in names
                    and (self.indeterminate or self.owned(v))]
            value = self.pick(pool) if pool and self.rng.random() < 0.7 else None
            if value is None:
                base = bases[k] if bases else self.require(dtype)
                others = [v for v in self.defined(dtype) if self.indeterminate or self.owned(v)]
                if (self.indeterminate or self.owned(base)) and others:
                    value = self.elementwise_of(base, self.pick(others))
                elif "fills" in self.features:
                    value = self.fill(self.empty(dtype), dtype)
                else:
                    value = self.elementwise_of(base, self.require(dtype))
            names.append(value)
        return names

    def owned(self, value):
        """Whether `value` surely has storage of the program's own: not a
        constant, not (maybe) an argument's or a module function result's
        storage taken over (stream-reuse-operand-storage makes those
        external). A region yielding others leaves its results' owner
        unknown to the compiler ("carried position is indeterminate"), and
        a loop carrying one makes the walk give up (seeds 98, 386)."""
        return not (value.constant or value.storage.argument or value.storage.external
                    or value.storage.unknown_owner)

    @property
    def indeterminate(self):
        return "indeterminate_carried" in self.features

    def elementwise_of(self, a, b):
        """A new value: an elementwise op on `a` and `b`."""
        dtype = a.dtype
        op = self.rng.choice(["add", "sub", "mul"]) + ("f" if dtype.startswith("f") else "i")
        name = self.gen.fresh("t")
        self.emit(f"{name} = arith.{op} {a.name}, {b.name} : {self.type_of(dtype)}")
        value = self.add(name, dtype)
        self.merge([a, b, value])
        return value

    def masked_scalar(self):
        """Now and then an integer scalar in scope masked to [0, 3] (its name
        and type), else None: a loop's bound."""
        ints = [(n, t) for n, t in self.scalars if t in WIDTH and t != "i1"]
        if not ints or self.rng.random() >= 0.6:
            return None
        scalar, type_ = self.rng.choice(ints)
        mask = self.constant(type_, 3)
        masked = self.gen.fresh("v")
        self.emit(f"{masked} = arith.andi {scalar}, {mask} : {type_}")
        return masked, type_

    def trip_bound(self):
        """An index in [0, 4]: a constant, or an integer scalar masked."""
        name = self.gen.fresh("c")
        masked = self.masked_scalar()
        if masked:
            self.emit(f"{name} = arith.index_cast {masked[0]} : {masked[1]} to index")
        else:
            self.emit(f"{name} = arith.constant {self.rng.randint(0, 4)} : index")
        return name

    def carried_inits(self):
        """The 1-2 initial values of a loop's carried tensors (scf.for,
        scf.while)."""
        inits = []
        for _ in range(self.rng.randint(1, 2)):
            value = self.pick([v for v in self.defined() if v not in inits])
            value = value or self.new_splat_or_fill(self.rng.choice(TENSOR_DTYPES))
            if not self.indeterminate:
                # A carried value the program owns and uses no more: a new
                # one, dropped from the scope (else the compiler cannot
                # tell who frees it, and the walk gives up). A fill where
                # there are fills: an elementwise op may take over the
                # storage of an scf.if's result, whose owner the compiler
                # may not know either (seed 98).
                if "fills" in self.features:
                    value = self.fill(self.empty(value.dtype), value.dtype)
                else:
                    value = self.elementwise_of(value, self.require(value.dtype))
                self.values.remove(value)
            inits.append(value)
        return inits

    def loop_body(self, i, inits, carried, scalar_acc, scalar_init):
        """A counted loop's body (scf.for or blocks) with induction variable
        `i`: a few steps on the `carried` values (the iteration's `inits`)
        and on values from outside. Returns what it passes on, as values
        and as names (the scalar accumulator's next value last)."""
        self.indices.append(i)
        if scalar_acc:
            self.scalars.append((scalar_acc, scalar_init[1]))
        before = len(self.values)
        self.region_steps(self.rng.randint(1, 4))
        out = self.yield_values([v.dtype for v in inits], self.values[before:], carried)
        names = [v.name for v in out]
        if scalar_acc:
            names.append(self.binary(self.scalars, scalar_init[1]))
        return out, names

    def op_loop(self):
        """scf.for carrying 1-2 tensors (and maybe a scalar), its body a few
        steps on them and on values from outside, written in place only
        into what the body itself made or carries."""
        self.region_setup()
        inits = self.carried_inits()
        scalar_init = None
        ints = [(n, t) for n, t in self.scalars if t in WIDTH and t != "i1"]
        if ints and self.rng.random() < 0.3:
            scalar_init = self.rng.choice(ints)
        lb = self.gen.fresh("c")
        self.emit(f"{lb} = arith.constant 0 : index")
        ub = self.trip_bound()
        step = self.gen.fresh("c")
        self.emit(f"{step} = arith.constant 1 : index")
        if self.cf_form():
            return self.cf_loop(inits, scalar_init, lb, ub, step)
        results = self.gen.fresh("l")
        count = len(inits) + (scalar_init is not None)
        i = self.gen.fresh("i")
        carried = [TensorValue(self.gen.fresh("acc"), v.dtype) for v in inits]
        for c, v in zip(carried, inits):
            # Iteration 0 carries the init's storage: its constraints hold.
            for flag in ("written", "escaped", "external", "argument"):
                setattr(c.storage, flag, getattr(v.storage, flag))
        types = [self.type_of(v.dtype) for v in inits]
        iter_args = [f"{c.name} = {v.name}" for c, v in zip(carried, inits)]
        scalar_acc = None
        if scalar_init:
            scalar_acc = self.gen.fresh("s")
            iter_args.append(f"{scalar_acc} = {scalar_init[0]}")
            types.append(scalar_init[1])
        head = f"{results}:{count}" if count > 1 else results
        self.emit(f"{head} = scf.for {i} = {lb} to {ub} step {step} "
                  f"iter_args({', '.join(iter_args)}) -> ({', '.join(types)}) {{")
        saved = self.enter(frozen=True)
        self.values += carried
        out, names = self.loop_body(i, inits, carried, scalar_acc, scalar_init)
        self.emit(f"scf.yield {', '.join(names)} : {', '.join(types)}")
        self.leave(saved)
        self.emit("}")
        for k, v in enumerate(inits):
            name = f"{results}#{k}" if count > 1 else results
            result = self.add(name, v.dtype)
            result.storage.unknown_owner = True
            yielded = out[k]
            for flag in ("written", "escaped", "external", "argument"):
                setattr(result.storage, flag, getattr(v.storage, flag)
                        or getattr(yielded.storage, flag))
            if yielded in self.values:
                self.merge([yielded, result])  # yielded from outside: the same buffer
        if scalar_acc:
            name = f"{results}#{count - 1}" if count > 1 else results
            self.scalars.append((name, scalar_init[1]))

    def while_bound(self):
        """An i32 in [0, 4]: a constant, or an integer scalar masked."""
        masked = self.masked_scalar()
        if masked:
            return self.cast(*masked, "i32")
        return self.constant("i32", self.rng.randint(0, 4))

    def op_while(self):
        """scf.while carrying 1-2 tensors and an i32 counter that stops it
        after 0..4 iterations: the before region compares the counter with
        a bound, now and then also an element read back from a carried
        tensor (tensor.extract) with a constant, and passes on the carried
        tensors or new values computed from them; the after region is a few
        steps, as an scf.for body, and counts."""
        self.region_setup()
        inits = self.carried_inits()
        bound = self.while_bound()
        zero = self.constant("i32", 0)
        types = [self.type_of(v.dtype) for v in inits] + ["i32"]
        type_list = ", ".join(types)

        def carried(prefix, sources):
            values = [TensorValue(self.gen.fresh(prefix), v.dtype) for v in sources]
            for c, v in zip(values, sources):
                # The first run carries the source's storage.
                for flag in ("written", "escaped", "external", "argument"):
                    setattr(c.storage, flag, getattr(v.storage, flag))
            return values

        results = self.gen.fresh("w")
        count = len(inits) + 1
        before_args = carried("wb", inits)
        counter = self.gen.fresh("k")
        spelled = [f"{a.name} = {v.name}" for a, v in zip(before_args, inits)]
        self.emit(f"{results}:{count} = scf.while ({', '.join(spelled + [f'{counter} = {zero}'])}) "
                  f": ({type_list}) -> ({type_list}) {{")
        # The before region: a loop body too (it runs again after each
        # iteration), so nothing from outside is written in place.
        saved = self.enter(frozen=True)
        self.values += before_args
        go = self.gen.fresh("cmp")
        self.emit(f"{go} = arith.cmpi slt, {counter}, {bound} : i32")
        ints = [v for v in before_args if not v.dtype.startswith("f")]
        if ints and "host_reads" in self.features and self.rng.random() < 0.4:
            before = len(self.scalars)
            self.op_extract_from(self.rng.choice(ints))
            element, type_ = self.scalars[before]
            predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge",
                                         "ult", "ule", "ugt", "uge"])
            read = self.gen.fresh("cmp")
            self.emit(f"{read} = arith.cmpi {predicate}, {element}, "
                      f"{self.constant(type_, self.rng.randint(-3, 3))} : {type_}")
            both = self.gen.fresh("cmp")
            self.emit(f"{both} = arith.andi {go}, {read} : i1")
            go = both
        passed = []
        for arg in before_args:
            others = [v for v in self.defined(arg.dtype) if self.indeterminate or self.owned(v)]
            if others and self.rng.random() < 0.25:
                passed.append(self.elementwise_of(arg, self.pick(others)))
            else:
                passed.append(arg)
        names = [v.name for v in passed] + [counter]
        self.emit(f"scf.condition({go}) {', '.join(names)} : {type_list}")
        self.leave(saved)
        self.lines.append("    " + "  " * self.depth + "} do {")
        # The after region: what the condition passed on, and the counter.
        after_args = carried("wa", passed)
        after_counter = self.gen.fresh("k")
        block_args = [f"{a.name}: {t}" for a, t in zip(after_args, types)]
        block_args.append(f"{after_counter}: i32")
        self.lines.append("    " + "  " * self.depth + f"^bb0({', '.join(block_args)}):")
        saved = self.enter(frozen=True)
        self.values += after_args
        self.scalars.append((after_counter, "i32"))
        before = len(self.values)
        self.region_steps(self.rng.randint(1, 4))
        out = self.yield_values([v.dtype for v in inits], self.values[before:], after_args)
        one = self.constant("i32", 1)
        next_ = self.gen.fresh("k")
        self.emit(f"{next_} = arith.addi {after_counter}, {one} : i32")
        self.emit(f"scf.yield {', '.join([v.name for v in out] + [next_])} : {type_list}")
        self.leave(saved)
        self.emit("}")
        for k, v in enumerate(inits):
            result = self.add(f"{results}#{k}", v.dtype)
            result.storage.unknown_owner = True
            for flag in ("written", "escaped", "external", "argument"):
                setattr(result.storage, flag, any(getattr(u.storage, flag)
                                                  for u in (v, passed[k], out[k])))
        self.scalars.append((f"{results}#{count - 1}", "i32"))

    def condition(self):
        """An i1: an induction variable or an integer scalar (an argument,
        an element read back) against a constant."""
        if self.indices and self.rng.random() < 0.4:
            c = self.gen.fresh("c")
            self.emit(f"{c} = arith.constant {self.rng.randint(0, 2)} : index")
            name = self.gen.fresh("cmp")
            predicate = self.rng.choice(["eq", "ne", "slt", "sge", "ult"])
            self.emit(f"{name} = arith.cmpi {predicate}, {self.rng.choice(self.indices)}, {c} : index")
            return name
        ints = [(n, t) for n, t in self.scalars if t in WIDTH]
        if (not ints or self.rng.random() < 0.3) and self.depth == 0 and "host_reads" in self.features:
            source = self.pick([v for v in self.defined() if not v.dtype.startswith("f")])
            if source is not None:
                before = len(self.scalars)
                self.op_extract_from(source)
                ints = self.scalars[before:]
        if not ints:
            return self.compare(self.scalars)
        scalar, type_ = self.rng.choice(ints)
        name = self.gen.fresh("cmp")
        predicate = self.rng.choice(["eq", "ne", "slt", "sle", "sgt", "sge",
                                     "ult", "ule", "ugt", "uge"])
        value = self.rng.randint(-3, 3) if type_ != "i1" else self.rng.randint(0, 1)
        self.emit(f"{name} = arith.cmpi {predicate}, {scalar}, "
                  f"{self.constant(type_, value)} : {type_}")
        return name

    def op_if(self):
        """scf.if choosing between tensors each branch computes."""
        self.region_setup()
        cond = self.condition()
        dtypes = []
        for _ in range(self.rng.randint(1, 2)):
            value = self.pick(self.defined())
            dtypes.append(value.dtype if value else self.rng.choice(TENSOR_DTYPES))
        if self.cf_form():
            return self.cf_if(cond, dtypes)
        results = self.gen.fresh("f")
        types = [self.type_of(d) for d in dtypes]
        head = f"{results}:{len(dtypes)}" if len(dtypes) > 1 else results
        self.emit(f"{head} = scf.if {cond} -> ({', '.join(types)}) {{")
        yielded = []
        for arm in range(2):
            if arm:
                self.lines.append("    " + "  " * self.depth + "} else {")
            # Not a loop: what comes from outside may be written in place
            # like anywhere (the branch runs once).
            saved = self.enter(frozen=False)
            before = len(self.values)
            self.region_steps(self.rng.randint(0, 3))
            out = self.yield_values(dtypes, self.values[before:])
            self.emit(f"scf.yield {', '.join(v.name for v in out)} : {', '.join(types)}")
            yielded.append(out)
            self.leave(saved)
        self.emit("}")
        for k, dtype in enumerate(dtypes):
            name = f"{results}#{k}" if len(dtypes) > 1 else results
            result = self.add(name, dtype)
            result.storage.unknown_owner = True
            for arm in yielded:
                v = arm[k]
                for flag in ("written", "escaped", "external", "argument"):
                    setattr(result.storage, flag, getattr(result.storage, flag)
                            or getattr(v.storage, flag))
                if v in self.values:
                    self.merge([v, result])
