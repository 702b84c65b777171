"""Generates a straight-line tensor program for compiler benchmarks.

usage: generate_program.py OPS [--size=N] > program.mlir

OPS elementwise f32 ops on tensor<Nxf32> (default N=1024), chained so that
each reads the previous result and one earlier value; every tenth op is a call
to an external function that writes its result in place into a tensor.empty
(`iree.abi.tied`). The same program is valid input for ferry-compile and for
upstream mlir-opt's one-shot bufferization, so both are measured on it.
"""
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("ops", type=int)
parser.add_argument("--size", type=int, default=1024)
args = parser.parse_args()

t = f"tensor<{args.size}xf32>"
out = []
out.append(f"func.func private @Bench.scale({t}, {t}) -> ({t} {{iree.abi.tied = 1 : index}}) "
           f"attributes {{iree.abi.model = \"coarse-fences\"}}")
out.append(f"func.func @main(%a: {t}, %b: {t}) -> {t} {{")
prev, older = "%a", "%b"
for i in range(args.ops):
    name = f"%v{i}"
    if i % 10 == 9:
        out.append(f"  %e{i} = tensor.empty() : {t}")
        out.append(f"  {name} = call @Bench.scale({prev}, %e{i}) : ({t}, {t}) -> {t}")
    else:
        op = ["arith.addf", "arith.mulf", "arith.subf"][i % 3]
        out.append(f"  {name} = {op} {prev}, {older} : {t}")
    older, prev = prev, name
out.append(f"  return {prev} : {t}")
out.append("}")
print("\n".join(out))
