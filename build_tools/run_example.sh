#!/usr/bin/env bash
# Ferry's main job: build the tools, compile the seed example (two in-place
# external calls, samples/tied_external_calls.mlir) and run it on the local
# CPU with the plugin that implements them (samples/custom_module), printing
# its input, output and device statistics; then the MLP sample, compiled to
# native code, with its top-1 class and statistics.
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

# A model: the 3-layer perceptron of samples/mlp.mlir (weights as dense
# constants, written by samples/models/generate_models.py from a fixed seed),
# compiled to native code for this CPU and run on the same input NumPy
# evaluates.
mlp="$root/samples/mlp.mlir"
models="$build/samples/models"
echo "== compiling $mlp (64-64-32-10 perceptron, ReLU) to native dispatches"
"$build/bin/ferry-compile" "$mlp" -o "$build/samples/mlp.fvm"
/usr/bin/python3 "$root/samples/models/generate_models.py" \
  --reference "$models" > /dev/null
echo "== running @main on a 1x64 input ($models/mlp.input.npy)"
"$build/bin/ferry-run" "$build/samples/mlp.fvm" \
  --input=@"$models/mlp.input.npy" --output=@"$models/mlp.output.npy" \
  --stats="$build/samples/mlp.stats.json"
/usr/bin/python3 - "$models" <<'PY'
import sys
import numpy as np
models = sys.argv[1]
out = np.load(f"{models}/mlp.output.npy")
expected = np.load(f"{models}/mlp.expected.npy")
print(f"top-1 class: {int(out.argmax())} (NumPy: {int(expected.argmax())}; "
      f"largest difference {float(np.abs(out - expected).max()):.3g})")
PY
echo "== device statistics (constant_bytes: the weights, resident once)"
cat "$build/samples/mlp.stats.json"
echo
