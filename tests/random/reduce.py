"""Shrinks a failing random program while it fails the same way.

    reduce.py FOLDER [--out=reduced.mlir] [--timeout=S]

FOLDER is one that run_random.py kept for a failing seed (seed-N: its
program.mlir, input*.npy and failure.txt). The reduced program must fail
with the same message, once numbers and source locations are blanked, on
the binding that failed. Each step is one edit that keeps the program valid
input (every value still defined before its uses, types unchanged):

- drop an unused function, an unused argument (and the matching operand of
  every call, or the matching input of @main), a result no caller uses (all
  of @main's may go);
- replace an op by constants of its result types (scalars, static tensors;
  not by other values, which could share what the program did not); an
  op with regions (scf.for, scf.if) goes with its regions;
- replace a scalar function's body by constants, a conditional branch by one
  of its edges (blocks nothing branches to go too);
- drop a `stream.affinity`.

Greedy, in rounds, until no edit keeps the failure: minutes for a program of
a few hundred lines.
"""
import argparse
import itertools
import os
import re
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import reference  # noqa: E402
import run_random  # noqa: E402

VALUE = r"%[\w]+"
AFFINITY = re.compile(r"\s*\{stream\.affinity = #hal\.device\.affinity<@\w+>\}")


def signature(message):
    """A failure message without what changes as the program shrinks."""
    message = re.sub(r"^seed \d+:?\s*", "", message.strip())
    first = message.splitlines()
    text = " ".join(first[:2]) if len(first) > 1 and first[0].endswith(":") else first[0]
    # The walk's failure goes on with the tail of its output (IR cut at any
    # point): the remark that says why is kept only if it is there.
    if first[0].startswith("the walk gives no peak"):
        why = re.search(r"remark: (peak live bytes unknown: [^']*)", message)
        text = first[0] + (" " + why.group(1) if why else "")
    text = re.sub(r"program\.mlir:\d+:\d+: ", "", text)
    text = re.sub(r"%[\w#]+", "%V", text)
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.sub(r"tensor<[^>]*>", "tensor<T>", text)
    return text


# --- Reading the program's structure --------------------------------------

class Func:
    def __init__(self, start, end, name, header):
        self.start, self.end = start, end  # header line, closing '}' line
        self.name = name
        self.header = header


def functions(lines):
    result = []
    for i, line in enumerate(lines):
        m = re.match(r"\s*func\.func (?:private )?@([\w.]+)\(", line)
        if not m or not line.rstrip().endswith("{"):
            continue
        j = i + 1
        while lines[j].rstrip() != "  }":
            j += 1
        result.append(Func(i, j, m.group(1), line))
    return result


def region_end(lines, i):
    """The last line of the op at line i: the `}` closing its regions if it
    opens one (scf.for, scf.if), else i."""
    if not lines[i].rstrip().endswith("{"):
        return i
    depth = 0
    for j in range(i, len(lines)):
        text = lines[j].strip()
        depth += text.endswith("{") - text.startswith("}")
        if depth == 0:
            return j
    return i


def defined_names(line):
    m = re.match(r"\s*((?:%[\w]+\s*,\s*)*%[\w]+)\s*=", line)
    return [n.strip() for n in m.group(1).split(",")] if m else []


def result_types(line):
    """Types of what `line` defines, in order."""
    body = AFFINITY.sub("", line.split("=", 1)[1]).strip()
    if body.startswith("arith.cmpi") or body in ("arith.constant true", "arith.constant false"):
        return ["i1"]
    if body.startswith("tensor.dim"):
        return ["index"]
    m = re.search(r"\bto (\S+)$", body)
    if m and (body.startswith("arith.") or m.group(1).startswith("tensor<")):
        return [m.group(1)]  # a cast or a slice: `: A to B` makes a B
    m = re.search(r"\binto (tensor<[^>]*>)", body)
    if m and body.startswith("tensor."):
        return [m.group(1)]
    m = re.search(r"\bouts\(%[\w#]+ : (tensor<[^>]*>)\)", body)
    if m and body.startswith("linalg."):
        return [m.group(1)]  # its result has its destination's type
    if "->" in body:
        out = body.rsplit("->", 1)[1].strip().removesuffix("{").strip()
        if out.startswith("("):
            out = out[1:-1]
        return reference.split_top(out)
    types = body.rsplit(":", 1)[1].strip()
    if body.startswith("arith.select"):
        # `: tensor<..xi1>, tensor<..>`: a select by a tensor of conditions
        return reference.split_top(types)[-1:]
    return [types]


def signature_parts(header):
    """(name, [(arg name, type text)], [result type text], attributes)."""
    m = re.match(r"(\s*func\.func (?:private )?@[\w.]+)\(", header)
    open_ = m.end() - 1
    close = reference.balanced(header, open_)
    args = [a.split(":", 1) for a in reference.split_top(header[open_ + 1:close - 1])]
    rest = header[close:].strip()
    if rest.endswith("{"):
        rest = rest[:-1].strip()
    results, attrs = [], ""
    if rest.startswith("->"):
        rest = rest[2:].strip()
        end = reference.balanced(rest, 0) if rest.startswith("(") else (rest + " ").index(" ")
        out = rest[1:end - 1] if rest.startswith("(") else rest[:end]
        results = reference.split_top(out)
        attrs = rest[end:].strip()
    return m.group(1), [(n.strip(), t.strip()) for n, t in args], results, attrs


def make_header(prefix, args, results, attrs):
    spelled = ", ".join(f"{n}: {t}" for n, t in args)
    return f"{prefix}({spelled}) -> ({', '.join(results)}) {attrs}".rstrip()


def strip_type(text):
    return AFFINITY.sub("", text).strip()


def constant_for(name, type_):
    """A line defining `name` as a constant of `type_`, or None."""
    if type_ == "i1":
        return f"    {name} = arith.constant false"
    if type_ in ("i8", "i16", "i32", "i64", "index"):
        return f"    {name} = arith.constant 0 : {type_}"
    t = reference.TensorType.parse(type_)
    if t and None not in t.shape:
        value = "0.0" if t.element.startswith("f") else "0"
        return f"    {name} = arith.constant dense<{value}> : {type_}"
    return None


# --- Edits: each yields (description, new lines, new inputs) ---------------

def uses(lines, name, start, end):
    pattern = re.compile(re.escape(name) + r"\b")
    return [i for i in range(start, end + 1) if pattern.search(lines[i])
            and name not in defined_names(lines[i])]


def drop_result(lines, f, k, call_lines):
    """`lines` without result `k` of `f` (in every return and call), or None
    if a caller uses it."""
    new = list(lines)
    for c in call_lines:
        names = defined_names(lines[c])
        if uses(lines, names[k], c + 1, len(lines) - 1):
            return None
        del names[k]
        head, out = lines[c].split("=", 1)[1].rsplit("->", 1)
        out_types = reference.split_top(out.strip().strip("()"))
        del out_types[k]
        call = f"{head.strip()} -> ({', '.join(out_types)})"
        new[c] = f"    {', '.join(names)} = {call}" if names else f"    {call}"
    for r in range(f.start + 1, f.end):
        if lines[r].strip().startswith("return "):
            operands, types = lines[r].strip()[len("return "):].rsplit(" : ", 1)
            ops, tys = reference.split_top(operands), reference.split_top(types)
            del ops[k], tys[k]
            new[r] = f"    return {', '.join(ops)} : {', '.join(tys)}" if ops else "    return"
    return new


def edits(lines, inputs):
    funcs = functions(lines)
    calls = {f.name: [] for f in funcs}
    for i, line in enumerate(lines):
        m = re.search(r"\bcall @([\w.]+)\(", line)
        if m and m.group(1) in calls:
            calls[m.group(1)].append(i)

    # Unused functions.
    for f in funcs:
        if f.name != "main" and not calls[f.name]:
            yield f"drop @{f.name}", lines[:f.start] + lines[f.end + 1:], inputs
    # External declarations nothing calls.
    for i, line in enumerate(lines):
        m = re.match(r"\s*func\.func private @([\w.]+)\(", line)
        if m and not line.rstrip().endswith("{") and not any(
                f"@{m.group(1)}(" in other for j, other in enumerate(lines) if j != i):
            yield f"drop declaration @{m.group(1)}", lines[:i] + lines[i + 1:], inputs

    for f in funcs:
        prefix, args, results, attrs = signature_parts(f.header)
        # Results: drop one no caller uses (any of @main's but the last).
        for k in range(len(results)):
            if f.name == "main" and len(results) == 1:
                break
            new = drop_result(lines, f, k, calls[f.name])
            if new:
                new[f.start] = make_header(prefix, args, results[:k] + results[k + 1:], attrs) + " {"
                yield f"drop result {k} of @{f.name}", new, inputs
        # Arguments: drop an unused one.
        for k, (name, _) in enumerate(args):
            if uses(lines, name, f.start + 1, f.end):
                continue
            new = list(lines)
            new[f.start] = make_header(prefix, args[:k] + args[k + 1:], results, attrs) + " {"
            for c in calls[f.name]:
                m = re.search(r"call @[\w.]+\((.*?)\)(.*?) : \((.*?)\) ->", new[c])
                ops = reference.split_top(m.group(1))
                tys = reference.split_top(m.group(3))
                del ops[k], tys[k]
                new[c] = new[c][:m.start()] + f"call @{f.name}({', '.join(ops)}){m.group(2)} : ({', '.join(tys)}) ->" + new[c][m.end():]
            new_inputs = inputs[:k] + inputs[k + 1:] if f.name == "main" else inputs
            yield f"drop argument {k} of @{f.name}", new, new_inputs
        # Scalar function bodies: constants.
        if not any("tensor<" in t for _, t in args) and not any("tensor<" in t for t in results) \
                and f.end - f.start > len(results) + 2:
            body = [constant_for(f"%z{k}", t) for k, t in enumerate(results)]
            body.append(f"    return {', '.join(f'%z{k}' for k in range(len(results)))} : {', '.join(results)}")
            yield f"constant body for @{f.name}", lines[:f.start + 1] + body + lines[f.end:], inputs
        # Branches: take one edge.
        for i in range(f.start + 1, f.end):
            m = re.match(r"(\s*)cf\.cond_br %[\w]+, (.*)$", lines[i])
            if m:
                for edge in reference.split_top(m.group(2)):
                    new = list(lines)
                    new[i] = f"{m.group(1)}cf.br {edge}"
                    yield f"branch to {edge.split('(')[0]}", drop_dead_blocks(new, f), inputs
        # Ops: replace their results.
        for i in range(f.end - 1, f.start, -1):
            names = defined_names(lines[i])
            if not names:
                if re.match(r"\s*call @", lines[i]):
                    yield f"drop line {i + 1}", lines[:i] + lines[i + 1:], inputs
                continue
            types = result_types(lines[i])
            if len(types) != len(names):
                continue
            # Used results become constants, not earlier values: sharing a
            # value the program did not share could turn one failure into
            # another.
            end = region_end(lines, i)  # an scf.for / scf.if goes with its regions
            constants = [constant_for(name, type_) for name, type_ in zip(names, types)
                         if uses(lines, name, end + 1, f.end)]
            if None not in constants:
                yield f"drop line {i + 1}", lines[:i] + constants + lines[end + 1:], inputs
    # Affinities.
    for i, line in enumerate(lines):
        for m in AFFINITY.finditer(line):
            new = list(lines)
            new[i] = line[:m.start()] + line[m.end():]
            new[i] = new[i].replace(" attributes  {", " {").replace(" attributes {", " {") \
                if new[i].rstrip().endswith("attributes {") else new[i]
            yield f"drop affinity on line {i + 1}", new, inputs


def drop_dead_blocks(lines, f):
    """Removes blocks of `f` nothing branches to (repeatedly)."""
    while True:
        end = next(i for i in range(f.start + 1, len(lines)) if lines[i].rstrip() == "  }")
        labels = [(i, re.match(r"\s*\^(\w+)", lines[i]).group(1))
                  for i in range(f.start + 1, end) if re.match(r"\s*\^\w+", lines[i])]
        for k, (i, label) in enumerate(labels):
            if not any(f"^{label}" in lines[j] for j in range(f.start, end) if j != i):
                stop = labels[k + 1][0] if k + 1 < len(labels) else end
                lines = lines[:i] + lines[stop:]
                break
        else:
            return lines


# --- Driving ---------------------------------------------------------------

def load_program(folder):
    with open(os.path.join(folder, "program.mlir")) as f:
        text = f.read()
    inputs = []
    while os.path.exists(os.path.join(folder, f"input{len(inputs)}.npy")):
        inputs.append(np.load(os.path.join(folder, f"input{len(inputs)}.npy")))
    with open(os.path.join(folder, "repro.sh")) as f:
        repro = f.read()
    program = generate.Program()
    program.text = text
    program.devices = ["a", "b"] if "hal.device.global @a" in text else []
    program.runtime_links = "#hal.runtime" in text
    program.compile_with_plugin = "ferry-compile program.mlir -o program.fvm --module=" in repro
    program.dynamic = "tensor<?" in text
    return program, inputs


def failing_binding(message):
    """The binding of the ferry-run that failed, or None (a compile failure)."""
    m = re.search(r"ferry-run ((?:--device=[\w.-]+=[\w-]+ ?)+)", message)
    if not m:
        return None
    return dict(re.findall(r"--device=([\w.-]+)=([\w-]+)", m.group(1)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--out", default="", help="default: FOLDER/reduced.mlir")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--tools-dir", default=os.path.join(run_random.SOURCE_ROOT, "build", "bin"))
    parser.add_argument("--plugins-dir", default=os.path.join(run_random.SOURCE_ROOT, "build", "plugins"))
    parser.add_argument("--compile-plugins-dir", default="")
    args = parser.parse_args(argv)
    tools = run_random.Tools(args)
    program, inputs = load_program(args.folder)
    with open(os.path.join(args.folder, "failure.txt")) as f:
        message = f.read()
    wanted = signature(message)
    binding = failing_binding(message)
    work = tempfile.mkdtemp(prefix="ferry-reduce-")
    print(f"keeping: {wanted}")

    def fails_alike(text, candidate_inputs):
        candidate = generate.Program()
        candidate.__dict__.update(program.__dict__)
        candidate.text = text
        checker = run_random.Checker(tools, os.path.join(work, "try"), args.timeout,
                                     [binding] if binding else [],
                                     compile_only=wanted.startswith("ferry-compile"))
        try:
            checker.check(candidate, candidate_inputs)
        except run_random.Failure as e:
            return signature(str(e)) == wanted
        return False

    if not fails_alike(program.text, inputs):
        sys.exit("reduce: the program does not fail that way (any more?)")
    lines = program.text.splitlines()
    out = args.out or os.path.join(args.folder, "reduced.mlir")

    def save(lines, inputs):
        """Writes the smallest program so far: a stopped run keeps its progress."""
        with open(out, "w") as f:
            f.write("\n".join(lines) + "\n")
        folder = os.path.dirname(os.path.abspath(out))
        for i, array in enumerate(inputs):
            np.save(os.path.join(folder, f"reduced.input{i}.npy"), array)
        # (Inputs dropped since the last save.)
        for i in itertools.count(len(inputs)):
            stale = os.path.join(folder, f"reduced.input{i}.npy")
            if not os.path.exists(stale):
                break
            os.remove(stale)

    progress = True
    while progress:
        progress = False
        for what, new_lines, new_inputs in edits(lines, inputs):
            if new_lines == lines:
                continue
            if fails_alike("\n".join(new_lines) + "\n", new_inputs):
                print(f"  {what}: {len(new_lines)} lines", flush=True)
                lines, inputs = new_lines, new_inputs
                save(lines, inputs)
                progress = True
                break
    save(lines, inputs)
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {out} ({len(lines)} lines, {len(inputs)} inputs reduced.input*.npy)")


if __name__ == "__main__":
    main(sys.argv[1:])
