#!/usr/bin/env bash
# Runs the runtime rows of docs/PERFORMANCE.md for Ferry and for the
# reference runtime (IREE's HAL C API, local-sync and local-task) side by
# side: both harnesses alternate for ROUNDS rounds in one session, each with
# its own baselines (atomics, malloc/free, memcpy, memset), so compare
# ratios to the baseline of the same round.
#
# usage: bench/peers/run_iree_comparison.sh IREE_CHECKOUT [FERRY_BUILD_DIR] [ROUNDS]
#
# IREE_CHECKOUT is an existing clone with its submodules (the script fetches
# nothing). Its runtime is built in $FERRY_PEER_BUILD_DIR (default
# /tmp/ferry-iree-peer-build) with the same compiler and flags as Ferry's
# Release build (-O3, the system C++ compiler).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if (($# < 1)); then
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
fi
iree="$(cd "$1" && pwd)"
ferry_build="${2:-$root/build}"
rounds="${3:-3}"
peer_build="${FERRY_PEER_BUILD_DIR:-/tmp/ferry-iree-peer-build}"

if [[ ! -f "$iree/runtime/src/iree/hal/api.h" ]]; then
  echo "error: $iree is not an IREE checkout (no runtime/src/iree/hal/api.h)" >&2
  exit 1
fi
if [[ ! -f "$iree/third_party/flatcc/CMakeLists.txt" ]]; then
  echo "error: $iree has no third_party/flatcc: clone it with its submodules" \
       "(git submodule update --init) before running this script" >&2
  exit 1
fi
ferry_bench="$ferry_build/bin/ferry-runtime-bench"
if [[ ! -x "$ferry_bench" ]]; then
  echo "error: $ferry_bench is missing: build Ferry first" \
       "(./build_tools/build.sh ferry-runtime-bench)" >&2
  exit 1
fi

cmake -S "$root/bench/peers" -B "$peer_build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O3 \
  -DCMAKE_CXX_FLAGS_RELEASE=-O3 -DIREE_SOURCE_DIR="$iree" > "$peer_build.log"
ninja -C "$peer_build" iree-hal-bench >> "$peer_build.log"

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "IREE: $(git -C "$iree" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "Ferry: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
for ((round = 1; round <= rounds; ++round)); do
  echo "== round $round, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "-- IREE"
  "$peer_build/iree-hal-bench" --benchmark_format=console
  echo "-- Ferry"
  # The rows IREE has, plus Ferry's own baselines.
  "$ferry_bench" --benchmark_format=console \
    --benchmark_filter='Baseline|PreserveDiscard$|IsTerminal|AllocateRelease/|QueueAllocaDealloca|QueueCopy|QueueFill'
done
