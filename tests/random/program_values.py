"""What generate.py knows of the values a generated program names: their
element types, integer widths, and which values may share one buffer once
the compiler writes in place (Storage), which the region and branch
generators (region_gen.py, cf_gen.py) follow to keep programs within what
the compiler may do."""

TENSOR_DTYPES = ["i8", "i16", "i32", "i64", "f32", "f64"]
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


class Storage:
    """What values may share one buffer once the compiler writes in place
    (a fill or tied call into its target; an elementwise op into an operand
    that dies there; with plugin_may_alias, a tied call into its input).
    Over-approximated: every value an op may write into joins its group."""

    def __init__(self, external=False, argument=False):
        self.written = False   # written into after it held a value
        self.escaped = False   # returned, or passed to a module function
        self.external = external  # a module function's result
        self.argument = argument  # a function argument
        # A region's result (or a constant): the compiler may not know who
        # owns it, so a loop must not carry it (see TensorFunctionBuilder.owned).
        self.unknown_owner = False


class TensorValue:
    def __init__(self, name, dtype, defined=True, is_arg=False, storage=None):
        self.name = name
        self.dtype = dtype
        self.defined = defined  # False: a tensor.empty, only written into
        self.is_arg = is_arg
        self.from_call = False  # a result of a module function
        self.exact = False      # surely exact (linalg_gen: may feed cmpf, floor)
        self.constant = False   # a splat arith.constant
        self.storage = storage or Storage(argument=is_arg)
