"""Measures how ferry-compile's cost grows with the size of the program.

usage: compile_growth.py [--rounds=N] [--sizes=1000,10000,100000]
                         [--instructions] NAME=FERRY_COMPILE ...

For each size, writes generate_program.py's program, then runs every given
ferry-compile on it in turn, round after round (so load changes hit each
binary alike), and prints per binary the best CPU time (user + sys of the
process and its threads, from wait4) of the rounds, its per-op cost, and
the growth from each size to the next. CPU time, not wall time: the
machine this runs on is usually shared.

--instructions also counts the instructions each compile executes, once
per binary and size, with valgrind's callgrind (slow: about 40x a normal
run). Instruction counts do not depend on load; use them where no hardware
counter is available (`perf stat -e instructions` needs a PMU, which a
virtual machine may not expose). CPU time growing faster than instructions
means the work is not slower per op but the memory is: cache and TLB misses.

Each binary's outputs of the same program must be identical (they are
compared byte for byte); a difference is reported and the run fails.
"""
import argparse
import filecmp
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("binaries", nargs="+", metavar="NAME=FERRY_COMPILE")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--sizes", default="1000,10000,100000")
parser.add_argument("--instructions", action="store_true")
args = parser.parse_args()

binaries = []
for spec in args.binaries:
    name, _, path = spec.partition("=")
    if not path:
        sys.exit(f"compile_growth.py: '{spec}' is not NAME=PATH")
    binaries.append((name, path))
sizes = [int(s) for s in args.sizes.split(",")]


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def cpu_seconds(command):
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        sys.exit(f"compile_growth.py: failed ({status}): {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime


def instructions(command, work):
    out = os.path.join(work, "callgrind.out")
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command,
        capture_output=True, text=True)
    match = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or not match:
        sys.exit(f"compile_growth.py: callgrind failed: {result.stderr[-2000:]}")
    return int(match.group(1))


with tempfile.TemporaryDirectory() as work:
    loads = [loadavg()]
    best, counts = {}, {}
    for n in sizes:
        program = os.path.join(work, f"p{n}.mlir")
        with open(program, "w") as f:
            subprocess.run([sys.executable, os.path.join(here, "generate_program.py"),
                            str(n)], stdout=f, check=True)
        outputs = {}
        for _ in range(args.rounds):
            for name, path in binaries:
                output = os.path.join(work, f"{name}-{n}.fvm")
                t = cpu_seconds([path, program, "-o", output])
                best[name, n] = min(best.get((name, n), t), t)
                outputs[name] = output
            loads.append(loadavg())
        first = binaries[0][0]
        for name, _ in binaries[1:]:
            if not filecmp.cmp(outputs[first], outputs[name], shallow=False):
                sys.exit(f"compile_growth.py: {name} and {first} wrote different "
                         f"modules for {n} ops")
        if args.instructions:
            for name, path in binaries:
                counts[name, n] = instructions(
                    [path, program, "-o", os.path.join(work, "ir.fvm")], work)

print(f"load average (1 min) {min(loads):.2f}-{max(loads):.2f}; best of "
      f"{args.rounds} rounds, CPU time (user+sys)")
header = "| ferry-compile | ops | CPU time (s) | us/op | growth |"
if args.instructions:
    header += " instructions | per op | growth |"
print(header)
print("|" + "---|" * (header.count("|") - 1))
for name, _ in binaries:
    for i, n in enumerate(sizes):
        t = best[name, n]
        growth = f"{t / best[name, sizes[i - 1]]:.2f}x" if i else ""
        row = f"| {name} | {n} | {t:.3f} | {t / n * 1e6:.1f} | {growth} |"
        if args.instructions:
            c = counts[name, n]
            cgrowth = f"{c / counts[name, sizes[i - 1]]:.2f}x" if i else ""
            row += f" {c:,} | {c / n:,.0f} | {cgrowth} |"
        print(row)
