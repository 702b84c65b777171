#!/usr/bin/env bash
# Ferry's main job: build the tools, compile an example program and run it on
# the local CPU, printing its inputs and outputs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FERRY_BUILD_DIR:-$root/build}"

"$root/build_tools/build.sh" ferry-compile ferry-run

example="$root/samples/elementwise.mlir"
module="$build/samples/elementwise.fvm"
mkdir -p "$(dirname "$module")"
inputs=(--input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=0.5,0.5,0.5,2,2,2)

echo "== compiling $example"
"$build/bin/ferry-compile" "$example" -o "$module"
echo "== running @main on the local CPU with ${inputs[*]}"
"$build/bin/ferry-run" "$module" --function=main "${inputs[@]}" \
  --stats="$build/samples/elementwise.stats.json"
echo "== device statistics"
cat "$build/samples/elementwise.stats.json"
echo
