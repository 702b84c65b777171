#!/usr/bin/env bash
# Ferry's main job: build the tools, compile the seed example (two in-place
# external calls, samples/tied_external_calls.mlir) and run it on the local
# CPU with the plugin that implements them (samples/custom_module), printing
# its input, output and device statistics.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FERRY_BUILD_DIR:-$root/build}"

"$root/build_tools/build.sh" ferry-compile ferry-run custom_module

example="$root/samples/tied_external_calls.mlir"
module="$build/samples/tied_external_calls.fvm"
plugin="$build/plugins/custom_module.so"
mkdir -p "$(dirname "$module")"
inputs=(--input=2x3xi32=1,2,3,4,5,6)

echo "== compiling $example against $plugin"
echo "   (its functions may write over their input, so x*x, Double, Triple and"
echo "    the last square share one buffer: 2 allocations with the input)"
"$build/bin/ferry-compile" "$example" --module="$plugin" -o "$module"
echo "== running @main on the local CPU with ${inputs[*]}"
echo "   (Double.function and Triple.function from $plugin;"
echo "    expected (3*(2*x*x))^2 = [36 576 2916][9216 22500 46656])"
"$build/bin/ferry-run" "$module" --function=main --module="$plugin" \
  "${inputs[@]}" --stats="$build/samples/tied_external_calls.stats.json"
echo "== device statistics"
cat "$build/samples/tied_external_calls.stats.json"
echo
