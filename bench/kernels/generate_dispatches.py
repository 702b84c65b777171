"""Generates a program of many dispatches for the compile-time benchmark.

usage: generate_dispatches.py LAYERS [--size=N] > program.mlir

Each layer is a linalg.fill of a fresh tensor<NxNxf32> and a linalg.matmul
of the previous layer's result with the weight argument into it, with a
linalg.generic ReLU after every layer: three linalg ops a layer, each a
dispatch of its own while dispatch formation does not fuse (with fusion the
fill and the ReLU join the matmul). `ferry-run --stats` reports how many
dispatches a run made (docs/PERFORMANCE.md, section "Kernels").
"""
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("layers", type=int)
parser.add_argument("--size", type=int, default=32)
args = parser.parse_args()

t = f"tensor<{args.size}x{args.size}xf32>"
out = ["#map = affine_map<(d0, d1) -> (d0, d1)>",
       f"func.func @main(%x: {t}, %w: {t}) -> {t} {{",
       "  %zero = arith.constant 0.0 : f32"]
prev = "%x"
for i in range(args.layers):
    out.append(f"  %e{i} = tensor.empty() : {t}")
    out.append(f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}")
    out.append(f"  %m{i} = linalg.matmul ins({prev}, %w : {t}, {t}) outs(%f{i} : {t}) -> {t}")
    out.append(f"  %r{i} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = [\"parallel\", \"parallel\"]}} ins(%m{i} : {t}) outs(%e{i} : {t}) {{")
    out.append("  ^bb0(%v: f32, %o: f32):")
    out.append("    %y = arith.maximumf %v, %zero : f32")
    out.append("    linalg.yield %y : f32")
    out.append(f"  }} -> {t}")
    prev = f"%r{i}"
out.append(f"  return {prev} : {t}")
out.append("}")
print("\n".join(out))
