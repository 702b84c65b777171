#!/usr/bin/env bash
# Builds everything (compiler, runtime, sanitizer builds of the runtime) and
# runs the whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FERRY_BUILD_DIR:-$root/build}"

"$root/build_tools/build.sh"
ctest --test-dir "$build" --output-on-failure -j2
