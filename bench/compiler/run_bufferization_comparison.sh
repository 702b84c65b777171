#!/usr/bin/env bash
# Times Ferry's stream pipeline (import, copy-on-write, copy elision, storage
# reuse, allocation scheduling) and the whole ferry-compile against upstream
# MLIR's one-shot bufferization on the same generated programs, in the same
# run, and counts the allocations and copies each produces.
#
# usage: bench/compiler/run_bufferization_comparison.sh [BUILD_DIR] [OPS...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
shift || true
sizes=("$@")
((${#sizes[@]})) || sizes=(10000 100000)
ferry_opt="$build/bin/ferry-opt"
ferry_compile="$build/bin/ferry-compile"
mlir_opt=/usr/lib/llvm-22/bin/mlir-opt
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

ferry_passes=(--convert-input-to-stream --canonicalize --cse
  --stream-materialize-copy-on-write --stream-elide-async-copies
  --stream-reuse-operand-storage --stream-schedule-allocation)
upstream_passes=(--convert-elementwise-to-linalg
  "--one-shot-bufferize=bufferize-function-boundaries")

# seconds of the fastest of three runs
best_time() {
  local best=""
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" > "$work/out.mlir"
    end=$(date +%s.%N)
    local t
    t=$(echo "$end - $start" | bc)
    if [[ -z "$best" ]] || (($(echo "$t < $best" | bc))); then best=$t; fi
  done
  echo "$best"
}

printf "| ops | tool | time (s) | allocations | copies |\n|---|---|---|---|---|\n"
for n in "${sizes[@]}"; do
  /usr/bin/python3 "$root/bench/compiler/generate_program.py" "$n" > "$work/p.mlir"
  t=$(best_time "$ferry_opt" "$work/p.mlir" "${ferry_passes[@]}")
  allocs=$(grep -c "stream.resource.alloca" "$work/out.mlir" || true)
  copies=$(grep -c "stream.cmd.copy" "$work/out.mlir" || true)
  printf "| %s | ferry (stream pipeline) | %.2f | %s | %s |\n" "$n" "$t" "$allocs" "$copies"
  # The whole compiler, to a bytecode module (every pass, HAL lowering,
  # writer); allocations and copies are those of the stream pipeline above.
  t=$(best_time "$ferry_compile" "$work/p.mlir" -o "$work/p.fvm")
  printf "| %s | ferry-compile (whole, to .fvm) | %.2f | | |\n" "$n" "$t"
  t=$(best_time "$mlir_opt" "$work/p.mlir" "${upstream_passes[@]}")
  allocs=$(grep -c "memref.alloc" "$work/out.mlir" || true)
  copies=$(grep -c "memref.copy" "$work/out.mlir" || true)
  printf "| %s | mlir-opt one-shot-bufferize | %.2f | %s | %s |\n" "$n" "$t" "$allocs" "$copies"
done
