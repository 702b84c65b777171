"""Compiles and runs random programs and checks them against the reference.

For each seed: generate.py writes a program and its inputs, reference.py
computes the expected results, ferry-compile compiles it once, the liveness
walk (ferry-opt --stream-estimate-peak-memory on the stream-cmd IR) gives its
peak per device, and ferry-run runs it on every driver binding that fits it
(BINDINGS). Each run must give the reference's results (integers exactly,
floats to a few ulps), leave `live_bytes_at_exit` and
`reclaimed_at_last_reference` (buffers no dealloca freed) 0 on every
device, and reach the walk's peak on every device (`peak_bytes`), except where the
runtime adds memory the program cannot see (expected_peak says exactly
when and how much).

    run_random.py --count=5000 --seed=1000 --jobs=2

A failure prints its seed, the command that reproduces it alone and the
folder where the program, its inputs and a repro.sh are kept.
"""
import argparse
import json
import multiprocessing
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
import reference  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))

# Driver bindings per kind of program: ferry-run --device=NAME=DRIVER.
SINGLE = "__device_0"
BINDINGS = {
    # One device: every driver.
    "single": [{SINGLE: "local-sync"}, {SINGLE: "local-task"}, {SINGLE: "local-discrete"}],
    # Two devices whose links the compiler decides (local targets: unified
    # and transparent), so both must be devices that reach each other.
    "static": [{"a": "local-sync", "b": "local-task"},
               {"a": "local-task", "b": "local-sync"},
               {"a": "local-task", "b": "local-task"}],
    # Links left to run time: any mix, including the discrete device (not
    # host-visible, not reachable from the other) and the isolated one (no
    # handle type either: buffers cross by transfers).
    "runtime": [{"a": "local-sync", "b": "local-task"},
                {"a": "local-task", "b": "local-discrete"},
                {"a": "local-discrete", "b": "local-sync"},
                {"a": "local-task", "b": "local-isolated"}],
}


# Drivers whose memory the host cannot map (ferry-run stages through it) and
# other devices cannot reach.
NOT_HOST_VISIBLE = {"local-discrete", "local-isolated"}


def program_kind(program):
    if not program.devices:
        return "single"
    return "runtime" if program.runtime_links else "static"


def make_inputs(program, seed):
    rng = np.random.default_rng(seed)
    inputs = []
    for shape, dtype in program.inputs:
        np_dtype = reference.NUMPY_DTYPES[dtype]
        if dtype == "i1":
            array = rng.random(size=shape) < 0.5
        elif dtype == "bf16":
            # ferry-run's bf16 .npy: the uint16 bits (exact: multiples of 1/4).
            array = reference.bf16_bits((rng.integers(-12, 13, size=shape) / 4).astype(np.float32))
        elif dtype.startswith("f"):
            array = (rng.integers(-12, 13, size=shape) / 4).astype(np_dtype)
        else:
            info = np.iinfo(np_dtype)
            wide = rng.integers(info.min, info.max, size=shape, dtype=np_dtype, endpoint=True)
            small = rng.integers(-10, 11, size=shape).astype(np_dtype)
            array = np.where(rng.random(size=shape) < 0.5, small, wide).astype(np_dtype)
        inputs.append(np.asarray(array))  # a scalar as a 0-d array
    return inputs


class Failure(Exception):
    pass


class Tools:
    def __init__(self, args):
        dirs = [d for d in args.tools_dir.split(":") if d]
        self.compile = self.find("ferry-compile", dirs)
        self.opt = self.find("ferry-opt", dirs)
        self.run = self.find("ferry-run", dirs)
        self.plugin = os.path.join(args.plugins_dir, "custom_module.so")
        self.compile_plugin = os.path.join(args.compile_plugins_dir or args.plugins_dir,
                                           "custom_module.so")
        for path in (self.plugin, self.compile_plugin):
            if not os.path.exists(path):
                raise SystemExit(f"run_random: no plugin {path}")

    @staticmethod
    def find(name, dirs):
        for d in dirs:
            path = os.path.join(d, name)
            if os.access(path, os.X_OK):
                return os.path.abspath(path)
        raise SystemExit(f"run_random: {name} not found in {':'.join(dirs)}")


class Checker:
    """Checks one program in its own folder; records every command so a
    failure can be replayed from there (repro.sh)."""

    def __init__(self, tools, directory, timeout, bindings=None, compile_only=False):
        self.tools = tools
        self.compile_only = compile_only
        self.dir = directory
        self.timeout = timeout
        self.only_bindings = bindings  # None: every binding that fits
        self.commands = []
        self.runs = 0

    def sh(self, argv, what):
        self.commands.append(shlex.join(argv))
        try:
            done = subprocess.run(argv, capture_output=True, text=True,
                                  timeout=self.timeout, cwd=self.dir)
        except subprocess.TimeoutExpired:
            raise Failure(f"{what}: timed out after {self.timeout:g} s")
        if done.returncode != 0:
            raise Failure(f"{what} exited with {done.returncode}:\n"
                          f"{done.stderr.strip()[-4000:]}")
        return done

    def check(self, program, inputs):
        """Raises Failure unless every run of `program` on `inputs` agrees
        with the reference, frees everything and peaks where the walk says."""
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        with open(os.path.join(self.dir, "program.mlir"), "w") as f:
            f.write(program.text)
        input_args = []
        for i, array in enumerate(inputs):
            np.save(os.path.join(self.dir, f"input{i}.npy"), array)
            input_args.append(f"--input=@input{i}.npy")
        try:
            notes = {}
            expected = reference.evaluate(program.text, "main", inputs, notes)
            program.zero_trip_dynamic = notes["zero_trip_dynamic"]
            program.ran_if = notes["ran_if"]
            program.inexact = notes["inexact"]
            program.result_elements = notes["result_elements"]
        except (reference.EvaluationError, TypeError, KeyError, AttributeError, ValueError) as e:
            # (Not only EvaluationError: reduce.py's edits can leave a
            # program the reference cannot read.)
            raise Failure(f"the reference rejects the program (a generator bug): {e!r}")

        plugin_flag = [f"--module={self.tools.compile_plugin}"] if program.compile_with_plugin else []
        self.sh([self.tools.compile, "program.mlir", "-o", "program.fvm"] + plugin_flag,
                "ferry-compile")
        if self.compile_only:
            return
        walk = self.walk(program, inputs, plugin_flag)
        for binding in BINDINGS[program_kind(program)]:
            if self.only_bindings is None or binding in self.only_bindings:
                self.run_binding(program, binding, input_args, inputs, expected, walk)

    def walk(self, program, inputs, plugin_flag):
        """@main's peak per device from the liveness walk."""
        cmd = self.sh([self.tools.compile, "program.mlir", "--compile-to=stream-cmd"] + plugin_flag,
                      "ferry-compile --compile-to=stream-cmd")
        with open(os.path.join(self.dir, "program.stream-cmd.mlir"), "w") as f:
            f.write(cmd.stdout)
        option = "--stream-estimate-peak-memory"
        if inputs:
            # One entry per argument: a tensor's shape, an integer scalar's
            # value (sizes may be computed from it), nothing for a float.
            option += "=input-shapes=" + ",".join(walk_entry(a) for a in inputs)
        done = self.sh([self.tools.opt, "program.stream-cmd.mlir", option, "-o", "/dev/null"],
                       "ferry-opt --stream-estimate-peak-memory")
        # The walk says where it counts both a loop's zero-trip and its
        # iterated placement of a carried buffer, or counts a free guarded by
        # an owned flag it cannot evaluate as not freeing (upper bounds).
        program.walk_upper_bound = ("may run no iteration" in done.stderr or
                                    "peak live bytes are an upper bound" in done.stderr)
        peaks, pending = {}, []
        for line in done.stderr.splitlines():
            m = re.search(r"remark: peak live bytes(?: on @(\w+))?: (\d+)", line)
            if m:
                pending.append((m.group(1) or SINGLE, int(m.group(2))))
                continue
            m = re.match(r"\s*func\.func (?:private )?@(\w+)", line)
            if m and pending:
                if m.group(1) == "main":
                    peaks.update(pending)
                pending = []
        if SINGLE not in peaks:
            raise Failure(f"the walk gives no peak for @main:\n{done.stderr[-2000:]}")
        return peaks

    def run_binding(self, program, binding, input_args, inputs, expected, walk):
        self.runs += 1
        tag = "-".join(f"{d}.{driver}" for d, driver in binding.items())
        outputs = [f"--output=@out.{tag}.{i}.npy" for i in range(len(expected))]
        devices = [f"--device={d}={driver}" for d, driver in binding.items()]
        where = "ferry-run " + " ".join(devices)
        self.sh([self.tools.run, "program.fvm", "--function=main", f"--module={self.tools.plugin}",
                 f"--stats=stats.{tag}.json"] + devices + input_args + outputs, where)
        for i, want in enumerate(expected):
            got = np.load(os.path.join(self.dir, f"out.{tag}.{i}.npy"))
            compare(f"{where}: result {i}", got, want, program.inexact[i],
                    program.result_elements[i])
        with open(os.path.join(self.dir, f"stats.{tag}.json")) as f:
            stats = json.load(f)
        for name, counts in stats["devices"].items():
            # (A device the host cannot map stages what crosses: copies.)
            host_visible = binding.get(name, "local-sync") not in NOT_HOST_VISIBLE
            if (program.expected_copies is not None and host_visible
                    and counts["copies"] != program.expected_copies):
                raise Failure(f"{where}: device '{name}' made copies={counts['copies']}, "
                              f"expected {program.expected_copies}")
            if counts["live_bytes_at_exit"] != 0:
                raise Failure(f"{where}: device '{name}' has live_bytes_at_exit="
                              f"{counts['live_bytes_at_exit']}")
            if counts["reclaimed_at_last_reference"] != 0:
                raise Failure(f"{where}: device '{name}' freed "
                              f"{counts['reclaimed_at_last_reference']} buffers by no "
                              "dealloca (reclaimed at their last reference)")
            low, high, why = expected_peak(program, binding, name, walk, inputs, expected)
            peak = counts["peak_bytes"]
            if not low <= peak <= high:
                want = (f"{low}" if low == high else f"at least {low}" if high == float("inf")
                        else f"{low} to {high}")
                raise Failure(f"{where}: device '{name}' peak_bytes={peak}, expected {want} "
                              f"({why})")

    def keep(self, error):
        """Leaves what a failure needs to be looked at in the folder."""
        with open(os.path.join(self.dir, "failure.txt"), "w") as f:
            f.write(error + "\n")
        with open(os.path.join(self.dir, "repro.sh"), "w") as f:
            f.write("#!/bin/sh\n# The commands run for this program, in order.\n"
                    "set -ex\ncd \"$(dirname \"$0\")\"\n")
            f.write("\n".join(self.commands) + "\n")


def walk_entry(array):
    """The walk's input-shapes entry for an input (ferry-opt
    --stream-estimate-peak-memory)."""
    if array.ndim:
        return "x".join(map(str, array.shape))
    return str(int(array)) if array.dtype.kind in "iub" else ""


# Ops whose result is a view of their operand's buffer (no copy).
VIEW_OPS = ("tensor.collapse_shape", "tensor.expand_shape", "tensor.cast", "tensor.bitcast")


def returned_operands(text):
    """@main's argument names and the operand of each of its results (a
    collapse_shape / expand_shape, a tensor.cast or a tensor.bitcast as
    what it views: the same buffer, staged back like an argument returned
    as it came: tests/e2e/discrete_staging_views.mlir)."""
    main = reference.parse_module(text)["main"]
    views = {}
    for block in main.blocks:
        for results, opname, rest, _ in block.ops:
            if opname in VIEW_OPS:
                source = rest.split()[0]
                views[results[0]] = views.get(source, source)
            if opname == "return":
                operands = reference.split_top(rest.rsplit(":", 1)[0])
                return [n for n, _ in main.args], [views.get(o, o) for o in operands]
    raise Failure("@main has no return")


def expected_peak(program, binding, device, walk, inputs, expected):
    """(low, high, why) for `device`'s peak_bytes.

    The walk counts what the program allocates plus the inputs (on the
    first device). ARCHITECTURE ("Peak memory") names what the runtime adds
    on top, and this is where each is accounted for:

    - ferry-run's input staging on a device the host cannot map
      (local-discrete as the first device): input k is allocated, then a
      staging buffer of its size, while inputs 0..k-1 are live;
    - results the host cannot map are staged back the same way, one at a
      time, while every result is live (on local-discrete only an input
      returned as it came or through a view, VIEW_OPS: the program
      allocates its results host-visible;
      counted for one device, where every result is on it);
    - imports into a device that cannot reach the buffer, when links are
      left to run time and a local-discrete or local-isolated device is in
      the mix (an opaque-fd import, or a transfer's stand-in and staging
      buffers): the walk cannot know which buffers cross, so it is a lower
      bound there;
    - the VM's staging of a function argument handed to an external
      function (as it came or through a view), on a device the host cannot map (import_staging.h):
      whether an argument reaches the call in host-visible memory is the
      host's business, so the walk is a lower bound there too;
    - the VM's staging of one element the host reads (tensor.extract) from
      an argument on a device the host cannot map: a buffer of the
      element's size (at most 8 bytes), freed right after the read;
    - an scf.for whose trip count is not a constant and that ran no
      iteration, or an scf.while whose after region never ran: the walk
      assumes (at least) one iteration of every loop whose trip count it
      cannot know, so it is an upper bound there. Only
      for those programs (the reference says which ran such a loop: notes
      of reference.evaluate); every other program, loops with iterations
      included, must still peak exactly where the walk says;
    - an scf.if: the walk counts its larger branch (ARCHITECTURE, "Peak
      memory"), and which one ran is the inputs' business, so for a program
      where some scf.if ran the walk is an upper bound too; the same for a
      `cf.cond_br` of a function with tensors (the import lifts it to an
      scf.if: a branch, or a loop's exit test);
    - an scf.for of dynamic trip count (or an scf.while) whose iterations
      move a carried buffer to another device: the walk keeps, per device,
      the larger of the live bytes with and without iterations, and says so
      in a remark ("may run no iteration"): an upper bound for those
      programs.
    - a free guarded by an owned flag (a carried value owned on some paths
      only) that the walk cannot evaluate (it depends on an scf.if's
      condition): the walk counts it as not freeing and says so in a remark
      ("peak live bytes are an upper bound").
    """
    walked = walk[device] if device in walk else 0
    first = next(iter(binding))
    low, why = walked, "the liveness walk"
    if device == first and binding[device] in NOT_HOST_VISIBLE:
        sizes = [a.nbytes for a in inputs if a.ndim]  # scalars pass in registers
        staging = max([sum(sizes[:k + 1]) + s for k, s in enumerate(sizes) if s] or [0])
        if staging > low:
            low, why = staging, f"input staging ({staging}) above the walk's {walked}"
        if device == SINGLE:
            args, operands = returned_operands(program.text)
            size = dict(zip(operands, (a.nbytes if a.ndim else 0 for a in expected)))
            staged = [size[n] for n in operands if n in args and size[n]]
            if staged and sum(size.values()) + max(staged) > low:
                low = sum(size.values()) + max(staged)
                why = f"result staging ({low}) above the walk's {walked}"
    high = low
    upper = [what for what, flag in (
        ("a loop of dynamic trip count (or a while) ran no iteration", "zero_trip_dynamic"),
        ("an scf.if (or a branch of blocks, lifted to one) ran one branch, "
         "the walk counts the larger", "ran_if"),
        ("the walk says it is an upper bound (a loop of dynamic trip count "
         "carries a buffer to another device, or a free guarded by an owned "
         "flag it cannot evaluate)", "walk_upper_bound"))
        if getattr(program, flag, False)]
    if upper:
        # The walk counted a body that never ran, or the larger branch.
        high = max(low, walked)
        if low == walked:
            low = 0
        why += f"; {' and '.join(upper)} (the walk is an upper bound)"
    if program.runtime_links and NOT_HOST_VISIBLE & set(binding.values()):
        high = float("inf")
        why += "; imports across a run-time link add to it"
    if binding[device] in NOT_HOST_VISIBLE and re.search(r"tensor\.extract %arg", program.text):
        # The host's own input there cannot be mapped: the VM reads an
        # element through a staging buffer of its size, freed at once (on
        # top of whatever is live then, the walk's peak included).
        high += 8
        why += "; a host read of an argument stages one element (at most 8 bytes)"
    if binding[device] in NOT_HOST_VISIBLE and passes_argument_to_external(program.text):
        high = float("inf")
        why += "; staging of arguments handed to external functions adds to it"
    return low, high, why


def passes_argument_to_external(text):
    """Whether some call of an external function takes a function argument,
    as it came or through a view (VIEW_OPS: the same buffer, staged the
    same way). The generator names values uniquely across the module."""
    views = {}
    view_ops = "|".join(re.escape(op) for op in VIEW_OPS)
    for result, source in re.findall(r"(%\w+) = (?:" + view_ops + r") (%\w+)", text):
        views[result] = views.get(source, source)
    for operands in re.findall(r"call @(?:Double|Triple)\.function\(([^)]*)\)", text):
        if any(views.get(o.strip(), o.strip()).startswith("%arg") for o in operands.split(",")):
            return True
    return False


# The tolerance of a result that depends on a math function, a division
# or a softmax (reference.INEXACT_OPS): MLIR's polynomial approximations
# are within a few ulps of NumPy's functions, and a sum of such values in
# another order differs by a few ulps of its largest term, so relative to
# the result's largest magnitude (README.md, "Tolerances").
INEXACT_RTOL = 1e-4


# f16 and bf16 results: each op computed in f32 and rounded once, like the
# reference, so they agree to the bit but for a different rounding of an
# inexact value; within an ulp or two of the type (10 and 7 bits).
HALF_RTOL = {"f16": 2.0 ** -9, "bf16": 2.0 ** -6}


def compare(what, got, want, inexact=False, element=None):
    if got.dtype != want.dtype or got.shape != want.shape:
        raise Failure(f"{what}: got {got.dtype} {got.shape}, expected {want.dtype} {want.shape}")
    if element in HALF_RTOL:
        g = reference.from_bf16_bits(got) if element == "bf16" else got.astype(np.float32)
        w = reference.from_bf16_bits(want) if element == "bf16" else want.astype(np.float32)
        rtol = max(HALF_RTOL[element], INEXACT_RTOL if inexact else 0)
        scale = max(1.0, float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0))) if inexact else 1.0
        ok = np.allclose(g, w, rtol=rtol, atol=rtol * scale * (1 if inexact else 1e-3),
                         equal_nan=True)
    elif want.dtype.kind == "f" and inexact:
        scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
        ok = np.allclose(got, want, rtol=INEXACT_RTOL, atol=INEXACT_RTOL * scale, equal_nan=True)
    elif want.dtype.kind == "f":
        ok = np.allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
    else:
        ok = np.array_equal(got, want)
    if not ok:
        raise Failure(f"{what}: wrong values\n  got:      {reference.format_tensor(got)}\n"
                      f"  expected: {reference.format_tensor(want)}")


# --- Driving many seeds ----------------------------------------------------

def repro_command(args, seed):
    argv = ["/usr/bin/python3", os.path.join(HERE, "run_random.py"), f"--seed={seed}", "--count=1",
            f"--tools-dir={args.tools_dir}", f"--plugins-dir={args.plugins_dir}"]
    if args.compile_plugins_dir:
        argv.append(f"--compile-plugins-dir={args.compile_plugins_dir}")
    if args.features:
        argv.append(f"--features={args.features}")
    return shlex.join(argv)


def check_seed(job):
    seed, args = job
    features = generate.parse_features(args.features)
    checker = Checker(Tools(args), os.path.join(args.work_dir, f"seed-{seed}"), args.timeout)
    start = time.monotonic()
    try:
        program = generate.generate(seed, features)
        checker.check(program, make_inputs(program, seed))
        error = None
    except Failure as e:
        error = str(e)
    except Exception:  # a bug of this script: report it with the seed
        error = "run_random.py raised:\n" + traceback.format_exc()
    if error:
        checker.keep(f"seed {seed}: {error}")
    elif not args.keep:
        shutil.rmtree(checker.dir, ignore_errors=True)
    return seed, error, checker.runs, time.monotonic() - start


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int,
                        default=int(os.environ.get("FERRY_RANDOM_COUNT", "100")),
                        help="programs to check (default $FERRY_RANDOM_COUNT or 100)")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FERRY_RANDOM_SEED", "0")),
                        help="first seed (default $FERRY_RANDOM_SEED or 0)")
    parser.add_argument("--features", default="",
                        help="changes to the default features: +name,-name,all,none "
                             "(see --list-features)")
    parser.add_argument("--list-features", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--tools-dir", default=os.path.join(SOURCE_ROOT, "build", "bin"),
                        help="where ferry-compile, ferry-opt and ferry-run are (a ':' list, "
                             "searched in order)")
    parser.add_argument("--plugins-dir", default=os.path.join(SOURCE_ROOT, "build", "plugins"),
                        help="custom_module.so for ferry-run")
    parser.add_argument("--compile-plugins-dir", default="",
                        help="custom_module.so for ferry-compile --module (default: --plugins-dir)")
    parser.add_argument("--work-dir", default="",
                        help="where programs are written; failing ones are kept "
                             "(default: a new temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep passing programs too")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per command")
    parser.add_argument("--max-failures", type=int, default=20,
                        help="stop after this many failing programs")
    args = parser.parse_args(argv)

    if args.list_features:
        enabled = generate.parse_features(args.features)
        for name, (_, what) in generate.FEATURES.items():
            print(f"{'on ' if name in enabled else 'off'} {name}: {what}")
        return 0
    generate.parse_features(args.features)  # reject unknown names early
    Tools(args)
    args.tools_dir = ":".join(os.path.abspath(d) for d in args.tools_dir.split(":") if d)
    args.plugins_dir = os.path.abspath(args.plugins_dir)
    if args.compile_plugins_dir:
        args.compile_plugins_dir = os.path.abspath(args.compile_plugins_dir)
    if not args.work_dir:
        args.work_dir = tempfile.mkdtemp(prefix="ferry-random-")
    os.makedirs(args.work_dir, exist_ok=True)
    args.work_dir = os.path.abspath(args.work_dir)
    for stale in os.listdir(args.work_dir):  # failures of an earlier run
        if stale.startswith("seed-"):
            shutil.rmtree(os.path.join(args.work_dir, stale), ignore_errors=True)

    start = time.monotonic()
    seeds = range(args.seed, args.seed + args.count)
    failures, runs, done = [], 0, 0
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for seed, error, seed_runs, _ in pool.imap_unordered(check_seed, [(s, args) for s in seeds]):
            done += 1
            runs += seed_runs
            if args.count >= 1000 and done % (args.count // 10) == 0:
                print(f"... {done}/{args.count} programs, {len(failures)} failed, "
                      f"{time.monotonic() - start:.0f} s", flush=True)
            if error:
                failures.append(seed)
                print(f"FAIL seed {seed}: {error}\n  reproduce: {repro_command(args, seed)}\n"
                      f"  kept in:   {os.path.join(args.work_dir, f'seed-{seed}')}", flush=True)
                if len(failures) >= args.max_failures:
                    print(f"stopping after {len(failures)} failing programs")
                    pool.terminate()
                    break
    elapsed = time.monotonic() - start
    print(f"{done} programs (seeds {args.seed}..{args.seed + args.count - 1}), {runs} runs, "
          f"{len(failures)} failed, {elapsed:.1f} s")
    if failures:
        print("failing seeds: " + " ".join(map(str, sorted(failures))))
        return 1
    if not args.keep and not os.listdir(args.work_dir):
        os.rmdir(args.work_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
