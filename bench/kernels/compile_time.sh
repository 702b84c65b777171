#!/usr/bin/env bash
# Compile time of ferry-compile (whole, to .fvm, native code included) for
# the MLP sample and for a program of 200 dispatches
# (generate_dispatches.py 100: a matmul and a ReLU a layer), median of 5
# runs each, wall and CPU (user + sys) time; also the dispatches a run of
# the generated program makes. Goals (issue 14): MLP under 2 s, 200
# dispatches under 20 s.
#
# usage: bench/kernels/compile_time.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python=/usr/bin/python3

"$python" "$root/bench/kernels/generate_dispatches.py" 100 >"$work/dispatches.mlir"

measure() { # NAME SOURCE
  local times=()
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
      "$build/bin/ferry-compile" "$2" -o "$work/out.fvm"
    times+=("$(cat "$work/time")")
  done
  printf '%s\n' "${times[@]}" | "$python" -c "
import sys, statistics
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
wall = statistics.median(r[0] for r in rows)
cpu = statistics.median(r[1] + r[2] for r in rows)
print(f'$1: wall {wall:.2f} s, cpu {cpu:.2f} s (median of {len(rows)})')"
}

measure "mlp sample" "$root/samples/mlp.mlir"
measure "200 dispatches" "$work/dispatches.mlir"
"$python" -c "import numpy as np; np.save('$work/x.npy', np.full((32, 32), 0.01, np.float32))"
"$build/bin/ferry-run" "$work/out.fvm" --function=main --input=@"$work/x.npy" \
  --input=@"$work/x.npy" --stats="$work/stats.json" >/dev/null
"$python" -c "import json; print('dispatches run:', json.load(open('$work/stats.json'))['dispatches'])"
