#!/usr/bin/python3
"""Runs every Ferry pass of ferry-opt, alone, on every .mlir file of the lit
suites (compiler/ and tests/e2e) and on the edge cases in inputs/ beside this
script, and fails if ferry-opt ever crashes.

A pass may succeed or report an error; what it may not do is die of a
signal, abort, hang, or exit non-zero without an `error:` diagnostic. The
Ferry passes are those ferry-opt --help lists that the compiler declares in
a Passes.td (or that are pipelines, all of them Ferry's); a declared pass
missing from --help fails the run too. Files run with --split-input-file,
so each `// -----` case is an input of its own; a case the verifier rejects
is reported as an error, which is fine.

Usage: run_every_pass.py --ferry-opt PATH --source-root DIR [-j N]
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import subprocess
import sys
import time

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:")
TIMEOUT_SECONDS = 120


def declared_passes(source_root):
    names = set()
    for td in (source_root / "compiler").rglob("Passes.td"):
        names.update(re.findall(r'Pass<"([a-z0-9-]+)"', td.read_text()))
    return names


def listed_passes(ferry_opt):
    """The pass and pipeline flags of ferry-opt --help, as two lists."""
    help_text = subprocess.run([ferry_opt, "--help"], capture_output=True,
                               text=True, check=True).stdout
    passes, pipelines, section = [], [], None
    for line in help_text.splitlines():
        stripped = line.strip()
        if stripped == "Passes:":
            section = passes
        elif stripped == "Pass Pipelines:":
            section = pipelines
        elif section is not None:
            # Passes are indented by 6, their options by 8 (and the values
            # of enum options by 4); a top-level option (2) ends the list.
            indent = len(line) - len(line.lstrip(" "))
            match = re.match(r"--([a-z0-9-]+)", stripped)
            if stripped and indent < 4:
                section = None
            elif indent == 6 and match:
                section.append(match.group(1))
    return passes, pipelines


def inputs(source_root, script_dir):
    files = []
    for suite in (source_root / "compiler", source_root / "tests" / "e2e"):
        files += [p for p in suite.rglob("*.mlir") if "Inputs" not in p.parts]
    files += (script_dir / "inputs").glob("*.mlir")
    return sorted(files)


def run(ferry_opt, pass_name, path):
    """None if ferry-opt behaved, else a description of the crash."""
    command = [ferry_opt, str(path), "--split-input-file", "--" + pass_name,
               "-o", os.devnull]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              errors="replace", timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return f"hung for {TIMEOUT_SECONDS} s"
    stderr = done.stderr
    if done.returncode < 0:
        problem = f"killed by signal {-done.returncode}"
    elif any(marker in stderr for marker in CRASH_MARKERS):
        problem = f"crashed (exit code {done.returncode})"
    elif done.returncode not in (0, 1):
        problem = f"exit code {done.returncode}"
    elif done.returncode == 1 and "error:" not in stderr:
        problem = "failed without an error: diagnostic"
    else:
        return None
    tail = "\n".join("    " + l for l in stderr.splitlines()[-12:])
    return f"{problem}\n  {' '.join(command)}\n{tail}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ferry-opt", required=True)
    parser.add_argument("--source-root", required=True, type=pathlib.Path)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()

    declared = declared_passes(args.source_root)
    passes, pipelines = listed_passes(args.ferry_opt)
    unregistered = sorted(declared - set(passes))
    if unregistered:
        print("declared in a Passes.td but not registered in ferry-opt: " +
              ", ".join(unregistered))
        return 1
    ferry_passes = sorted(declared) + sorted(pipelines)
    files = inputs(args.source_root, pathlib.Path(__file__).resolve().parent)
    jobs = [(p, f) for f in files for p in ferry_passes]

    start = time.monotonic()
    crashes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run, args.ferry_opt, p, f): (p, f)
                   for p, f in jobs}
        for future in concurrent.futures.as_completed(futures):
            problem = future.result()
            if problem:
                pass_name, path = futures[future]
                crashes.append(f"--{pass_name} on {path}: {problem}")
    for crash in sorted(crashes):
        print(crash)
    print(f"{len(ferry_passes)} passes x {len(files)} inputs in "
          f"{time.monotonic() - start:.1f} s")
    print(f"{len(jobs) - len(crashes)} passed, {len(crashes)} failed")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
