"""What reference.py and reference_body.py share: the program's errors,
element types and text splitting."""
import numpy as np


class EvaluationError(Exception):
    """The program is not valid input (a generator bug), or reads what it
    must not (undefined contents, division by zero)."""


NUMPY_DTYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32,
                "i64": np.int64, "f32": np.float32, "f64": np.float64,
                "i1": np.bool_, "f16": np.float16,
                # bf16 is computed on float32 arrays rounded to bf16 after
                # every op whose result is bf16 (round_bf16); in and out as
                # ferry-run's .npy: uint16 bits.
                "bf16": np.float32}


def split_top(text, sep=","):
    """Splits at `sep` outside brackets."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _unsigned(array):
    return array.view(np.dtype(array.dtype.str.replace("i", "u")))
