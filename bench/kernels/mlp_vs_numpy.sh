#!/usr/bin/env bash
# The MLP sample at batch 256 end to end in process, Ferry against
# NumPy + OpenBLAS with the same thread count, in the same run (issue 14:
# Ferry at most 1.25x NumPy's time).
#
# What is timed, per forward pass of one 256x64 batch:
# - Ferry: ferry-kernel-bench's BM_MLPBatch256_Ferry, one VM call of @main
#   of bench/kernels/mlp_batch256.fvm (what the build compiles from
#   samples/mlp.mlir at batch 256: 3 dispatches, the result allocated by the
#   module as in any run); the input is uploaded once, module load and
#   compile are not timed. One thread: local-sync; two: local-task with 2
#   workers, and beside it local-task with its inline path off (every
#   operation handed to the queue thread: what local-task did before it
#   ran small operations on the calling thread). Google Benchmark's real
#   time and the process's CPU time (all threads), median of 5
#   repetitions.
# - NumPy: bench/kernels/mlp.py numpy, the same weights (parsed from the
#   sample) as h @ w + b and np.maximum per layer, OPENBLAS_NUM_THREADS=1
#   or 2; median over 5 repeats of 2000 calls, wall time.
# Under load wall times swing; every row also gives CPU time (of the
# process, all threads, for Ferry and NumPy alike).
# Both exclude process start. The script first checks Ferry's result
# against NumPy (ferry-run on a random batch), then runs ROUNDS rounds of
# the measurements (Ferry's three devices, NumPy on 1 and 2 threads),
# alternating, and prints every round.
#
# usage: bench/kernels/mlp_vs_numpy.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build}
rounds=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=/usr/bin/python3
module=$build/bench/kernels/mlp_batch256.fvm

"$python" "$root/bench/kernels/mlp.py" check 256 "$build/bin/ferry-run" "$module"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'); $(uptime)"
for round in $(seq "$rounds"); do
  # CSV rows: name,iterations,real_time,cpu_time,... (microseconds), in the
  # order of the devices: local-sync, local-task, local-task inline off.
  ferry=$("$build/bin/ferry-kernel-bench" \
    --benchmark_filter='MLPBatch256_Ferry/device:[012]/' \
    --benchmark_min_time=0.5 --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
    grep '_median"' | cut -d, -f3,4 | tr ',' ' ')
  numpy1=$(OPENBLAS_NUM_THREADS=1 "$python" "$root/bench/kernels/mlp.py" numpy 256)
  numpy2=$(OPENBLAS_NUM_THREADS=2 "$python" "$root/bench/kernels/mlp.py" numpy 256)
  # shellcheck disable=SC2086 # each holds two numbers
  "$python" - "$round" $ferry $numpy1 $numpy2 <<'EOF'
import sys
r = sys.argv[1]
(f1, f1cpu, f2, f2cpu, fq, fqcpu,
 n1, n1cpu, n2, n2cpu) = map(float, sys.argv[2:])
# Ferry's figures are microseconds (the benchmark's unit), NumPy's seconds.
n1, n1cpu, n2, n2cpu = n1 * 1e6, n1cpu * 1e6, n2 * 1e6, n2cpu * 1e6
print("round %s: 1 thread: Ferry %.1f us (CPU %.1f), NumPy %.1f us (CPU %.1f), "
      "ratio %.2fx (CPU %.2fx); 2 threads: Ferry %.1f us (CPU %.1f), "
      "NumPy %.1f us (CPU %.1f), ratio %.2fx (CPU %.2fx); 2 threads, "
      "inline off: Ferry %.1f us (CPU %.1f), ratio %.2fx (CPU %.2fx)"
      % (r, f1, f1cpu, n1, n1cpu, f1 / n1, f1cpu / n1cpu, f2, f2cpu, n2,
         n2cpu, f2 / n2, f2cpu / n2cpu, fq, fqcpu, fq / n2, fqcpu / n2cpu))
EOF
done
echo "after: $(uptime)"
