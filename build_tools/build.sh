#!/usr/bin/env bash
# Installs missing packages, then configures and builds Ferry in build/
# (or $FERRY_BUILD_DIR). Extra arguments are ninja targets.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FERRY_BUILD_DIR:-$root/build}"

"$root/build_tools/setup.sh"
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" "$@"
