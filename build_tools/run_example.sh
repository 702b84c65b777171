#!/usr/bin/env bash
# Ferry's main job: build the tools, compile the seed example (two in-place
# external calls, samples/tied_external_calls.mlir) and run it on the local
# CPU with the plugin that implements them (samples/custom_module), printing
# its input, output and device statistics; then the MLP and CNN samples,
# compiled to native code, each with its top-1 class and statistics.
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

# The models: the 3-layer perceptron of samples/mlp.mlir and the small CNN
# of samples/cnn.mlir (weights as dense constants, written by
# samples/models/generate_models.py from a fixed seed), each compiled to
# native code for this CPU and run on the same input NumPy evaluates.
models="$build/samples/models"
/usr/bin/python3 "$root/samples/models/generate_models.py" \
  --reference "$models" > /dev/null
run_model() {
  local name="$1" description="$2" input="$3"
  local source="$root/samples/$name.mlir"
  echo "== compiling $source ($description) to native dispatches"
  "$build/bin/ferry-compile" "$source" -o "$build/samples/$name.fvm"
  echo "== running @main on a $input input ($models/$name.input.npy)"
  "$build/bin/ferry-run" "$build/samples/$name.fvm" \
    --input=@"$models/$name.input.npy" --output=@"$models/$name.output.npy" \
    --stats="$build/samples/$name.stats.json"
  /usr/bin/python3 - "$models" "$name" <<'PY'
import sys
import numpy as np
models, name = sys.argv[1:3]
out = np.load(f"{models}/{name}.output.npy")
expected = np.load(f"{models}/{name}.expected.npy")
print(f"top-1 class: {int(out.argmax())} (NumPy: {int(expected.argmax())}; "
      f"largest difference {float(np.abs(out - expected).max()):.3g})")
PY
  echo "== device statistics (constant_bytes: the weights, resident once)"
  cat "$build/samples/$name.stats.json"
  echo
}
run_model mlp "64-64-32-10 perceptron, ReLU" 1x64
run_model cnn "3x3 conv to 8 channels, ReLU, 2x2 max pool, matmul head" \
  1x16x16x1
