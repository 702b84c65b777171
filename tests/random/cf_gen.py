"""Tensor loops and branches of generate.py's @main written as `cf` blocks
(the cf_tensor_blocks feature): `cf.br` / `cf.cond_br` carrying tensors in
block arguments instead of `scf.for` / `scf.if`. Ferry's import lifts them
to scf (`transformCFGToSCF`, then LiftControlFlow.cpp's rewrite of the
rotated loops it makes), so these programs test the lifting and what the
memory passes make of its output.

A loop counts an index from 0 to a bound (0..4, a constant or a masked
scalar) and carries 1-2 tensors (and maybe a scalar): its header tests the
counter (now and then also an element read back from a carried tensor),
its body is a few steps as an scf.for body's, and now and then exits from
the middle (a `cf.cond_br` to the exit with the values it made, the other
way back to the header). The exit block's arguments are the loop's
results. A branch is a diamond whose join block's arguments are the
results; each side computes what it passes, as an scf.if's branches do.

Only where every region around is itself cf blocks (an scf region has one
block), only in @main, only in programs of static shape (lifting leaves
`ub.poison` for a value a path never uses, which the import makes an
allocation of static shape only). The ownership rules are those of the
scf forms (generate.py's op_loop / op_if): the same program written
either way must be accepted alike.
"""


class CfBlockSteps:
    """Mixed into generate.TensorFunctionBuilder: its op_loop and op_if make
    their operands (inits, bounds; condition, types) and hand them to
    cf_loop / cf_if when cf_form() says so."""

    cf_depth = 0  # cf constructs around the next op (each a scope)

    def cf_form(self):
        """Whether the next loop or branch is written as blocks. Draws from
        the generator only when the feature could apply, so programs
        without it stay the same."""
        if ("cf_tensor_blocks" not in self.features or not self.is_main
                or self.gen.dynamic or self.depth != self.cf_depth):
            return False
        return self.rng.random() < 0.5

    def cf_label(self, prefix):
        return self.gen.fresh(prefix)[1:]  # fresh names start with '%'

    @staticmethod
    def cf_target(label, names, types):
        if not names:
            return f"^{label}"
        return f"^{label}({', '.join(names)} : {', '.join(types)})"

    def cf_enter(self, frozen):
        saved = self.enter(frozen)
        self.cf_depth += 1
        return saved

    def cf_leave(self, saved):
        self.cf_depth -= 1
        self.leave(saved)

    def cf_results(self, names, sources, yielded):
        """The values a construct's exit or join block receives: for each,
        what `sources` (the inits, for a loop) and `yielded` (one list per
        way in) say of their storage."""
        for k, name in enumerate(names):
            result = self.add(name, yielded[0][k].dtype)
            result.storage.unknown_owner = True
            for v in [s[k] for s in sources] + [y[k] for y in yielded]:
                for flag in ("written", "escaped", "external", "argument"):
                    setattr(result.storage, flag, getattr(result.storage, flag)
                            or getattr(v.storage, flag))
                if v in self.values:
                    self.merge([v, result])  # passed from outside: one buffer

    def cf_loop(self, inits, scalar_init, zero, bound, one):
        """A counted loop of blocks (see the module's docstring): from
        `zero` to `bound` by `one` (index values), carrying `inits` and
        maybe `scalar_init` (name, type)."""
        header, body, exit_ = (self.cf_label(p) for p in ("head", "body", "exit"))
        i = self.gen.fresh("i")
        accs = [self.gen.fresh("acc") for _ in inits]
        types = [self.type_of(v.dtype) for v in inits]
        scalar_acc = None
        if scalar_init:
            scalar_acc = self.gen.fresh("s")
            types.append(scalar_init[1])
        init_names = [v.name for v in inits] + ([scalar_init[0]] if scalar_init else [])
        self.emit("cf.br " + self.cf_target(header, [zero] + init_names, ["index"] + types))
        acc_names = accs + ([scalar_acc] if scalar_acc else [])
        self.label(header, [(i, "index")] + list(zip(acc_names, types)))
        stop = self.gen.fresh("cmp")
        self.emit(f"{stop} = arith.cmpi sge, {i}, {bound} : index")
        saved = self.cf_enter(frozen=True)
        carried = [self.add(name, v.dtype) for name, v in zip(accs, inits)]
        for c, v in zip(carried, inits):
            # The first iteration carries the init's storage.
            for flag in ("written", "escaped", "external", "argument"):
                setattr(c.storage, flag, getattr(v.storage, flag))
        reads = [c for c in carried if not c.dtype.startswith("f")]
        if reads and "host_reads" in self.features and self.rng.random() < 0.3:
            # Also stop on an element read back (the header runs once more
            # than the body, like an scf.while's before region).
            before = len(self.scalars)
            self.op_extract_from(self.rng.choice(reads))
            element, type_ = self.scalars[before]
            read = self.gen.fresh("cmp")
            predicate = self.rng.choice(["eq", "ne", "slt", "sgt", "ult", "ugt"])
            self.emit(f"{read} = arith.cmpi {predicate}, {element}, "
                      f"{self.constant(type_, self.rng.randint(-3, 3))} : {type_}")
            either = self.gen.fresh("cmp")
            self.emit(f"{either} = arith.ori {stop}, {read} : i1")
            stop = either
        self.emit(f"cf.cond_br {stop}, {self.cf_target(exit_, acc_names, types)}, ^{body}")
        self.label(body, [])
        out, names = self.loop_body(i, inits, carried, scalar_acc, scalar_init)
        next_i = self.gen.fresh("i")
        self.emit(f"{next_i} = arith.addi {i}, {one} : index")
        back = self.cf_target(header, [next_i] + names, ["index"] + types)
        if self.rng.random() < 0.3:
            # An exit from the middle, with the values this iteration made.
            leave = self.condition()
            self.emit(f"cf.cond_br {leave}, {self.cf_target(exit_, names, types)}, {back}")
        else:
            self.emit(f"cf.br {back}")
        self.cf_leave(saved)
        results = [self.gen.fresh("l") for _ in inits]
        scalar_result = self.gen.fresh("s") if scalar_acc else None
        self.label(exit_, list(zip(results + ([scalar_result] if scalar_acc else []), types)))
        self.cf_results(results, [inits], [out])
        if scalar_acc:
            self.scalars.append((scalar_result, scalar_init[1]))

    def cf_if(self, cond, dtypes):
        """A diamond of blocks on `cond` choosing between tensors of
        `dtypes` each side computes."""
        types = [self.type_of(d) for d in dtypes]
        then, other, join = (self.cf_label(p) for p in ("then", "else", "join"))
        self.emit(f"cf.cond_br {cond}, ^{then}, ^{other}")
        yielded = []
        for label in (then, other):
            self.label(label, [])
            # Not a loop: what comes from outside may be written in place.
            saved = self.cf_enter(frozen=False)
            before = len(self.values)
            self.region_steps(self.rng.randint(0, 3))
            out = self.yield_values(dtypes, self.values[before:])
            self.emit("cf.br " + self.cf_target(join, [v.name for v in out], types))
            yielded.append(out)
            self.cf_leave(saved)
        results = [self.gen.fresh("f") for _ in dtypes]
        self.label(join, list(zip(results, types)))
        self.cf_results(results, [], yielded)
