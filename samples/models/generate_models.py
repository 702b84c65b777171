#!/usr/bin/python3
"""Writes Ferry's model samples and their NumPy reference.

samples/mlp.mlir: a 3-layer perceptron on one 64-element input
(64 -> 64 -> 32 -> 10, ReLU between layers) in linalg on tensors, the way
front ends emit it: linalg.matmul into a zero-filled destination, the bias
as a linalg.broadcast, arith.addf and arith.maximumf on whole tensors.
samples/cnn.mlir: a small convolutional network on one 16x16 grey image
(NHWC): 3x3 convolution to 8 channels, ReLU, 2x2 max pooling, flatten and
a matmul head to 10 classes.

Every weight is an arith.constant dense tensor (raw little-endian f32 in
hex, so the values are exact), drawn from a fixed seed, so the samples are
reproducible byte for byte. `--check` compares the files with what the
generator would write instead of writing them; `--reference DIR` writes
each model's input and its NumPy result as .npy files into DIR.
"""
import argparse
import os
import sys

import numpy as np

SEED = 20261201
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.dirname(HERE)


def dense(array):
    """An MLIR dense literal holding array's f32 bytes exactly."""
    data = np.ascontiguousarray(array, dtype="<f4").tobytes()
    return 'dense<"0x%s">' % data.hex().upper()


def tensor_type(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def mlp_weights(rng):
    sizes = [64, 64, 32, 10]
    layers = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        scale = np.float32(1.0 / np.sqrt(fan_in))
        w = (rng.standard_normal((fan_in, fan_out)) * scale).astype(np.float32)
        b = (rng.standard_normal(fan_out) * np.float32(0.1)).astype(np.float32)
        layers.append((w, b))
    x = rng.standard_normal((1, sizes[0])).astype(np.float32)
    return layers, x


def mlp_reference(layers, x):
    h = x
    for i, (w, b) in enumerate(layers):
        h = (h @ w + b[None, :]).astype(np.float32)
        if i + 1 < len(layers):
            h = np.maximum(h, np.float32(0))
    return h


def mlp_source(layers):
    lines = [
        "// A 3-layer perceptron (64 -> 64 -> 32 -> 10, ReLU between layers) in",
        "// linalg on tensors, weights as dense constants. Written by",
        "// samples/models/generate_models.py (fixed seed); do not edit by hand.",
        "func.func @main(%x: tensor<1x64xf32>) -> tensor<1x10xf32> {",
        "  %zero = arith.constant 0.0 : f32",
    ]
    h, width = "%x", 64
    for i, (w, b) in enumerate(layers):
        n = w.shape[1]
        out = tensor_type((1, n))
        lines += [
            "  %%w%d = arith.constant %s : %s" % (i, dense(w), tensor_type(w.shape)),
            "  %%b%d = arith.constant %s : %s" % (i, dense(b), tensor_type(b.shape)),
            "  %%e%d = tensor.empty() : %s" % (i, out),
            "  %%z%d = linalg.fill ins(%%zero : f32) outs(%%e%d : %s) -> %s"
            % (i, i, out, out),
            "  %%m%d = linalg.matmul ins(%s, %%w%d : %s, %s) outs(%%z%d : %s) -> %s"
            % (i, h, i, tensor_type((1, width)), tensor_type(w.shape), i, out, out),
            "  %%bb%d = linalg.broadcast ins(%%b%d : %s) outs(%%e%d : %s) dimensions = [0]"
            % (i, i, tensor_type(b.shape), i, out),
            "  %%a%d = arith.addf %%m%d, %%bb%d : %s" % (i, i, i, out),
        ]
        h = "%%a%d" % i
        if i + 1 < len(layers):
            lines.append("  %%r%d = arith.maximumf %%a%d, %%zz%d : %s" % (i, i, i, out))
            lines.insert(len(lines) - 1,
                         "  %%zz%d = linalg.fill ins(%%zero : f32) outs(%%e%d : %s) -> %s"
                         % (i, i, out, out))
            h = "%%r%d" % i
        width = n
    lines += ["  return %s : %s" % (h, tensor_type((1, width))), "}", ""]
    return "\n".join(lines)


def cnn_weights(rng):
    filters = (rng.standard_normal((3, 3, 1, 8)) / np.float32(3)).astype(np.float32)
    conv_bias = (rng.standard_normal(8) * np.float32(0.1)).astype(np.float32)
    head = (rng.standard_normal((7 * 7 * 8, 10)) / np.float32(np.sqrt(392))).astype(np.float32)
    head_bias = (rng.standard_normal(10) * np.float32(0.1)).astype(np.float32)
    image = rng.standard_normal((1, 16, 16, 1)).astype(np.float32)
    return (filters, conv_bias, head, head_bias), image


def cnn_reference(weights, image):
    filters, conv_bias, head, head_bias = weights
    conv = np.zeros((1, 14, 14, 8), dtype=np.float32)
    for kh in range(3):
        for kw in range(3):
            patch = image[:, kh:kh + 14, kw:kw + 14, :]  # 1x14x14x1
            conv += (patch @ filters[kh, kw]).astype(np.float32)
    conv = np.maximum(conv + conv_bias, np.float32(0))
    pooled = conv.reshape(1, 7, 2, 7, 2, 8).max(axis=(2, 4))
    flat = pooled.reshape(1, 392)
    return (flat @ head + head_bias).astype(np.float32)


def cnn_source(weights):
    filters, conv_bias, head, head_bias = weights
    t = tensor_type
    return "\n".join([
        "// A small CNN on one 16x16 grey image (NHWC): 3x3 convolution to 8",
        "// channels, ReLU, 2x2 max pooling, flatten, matmul head to 10 classes.",
        "// Written by samples/models/generate_models.py (fixed seed); do not edit",
        "// by hand.",
        "func.func @main(%image: tensor<1x16x16x1xf32>) -> tensor<1x10xf32> {",
        "  %zero = arith.constant 0.0 : f32",
        "  %lowest = arith.constant -3.40282347E+38 : f32",
        "  %%filters = arith.constant %s : %s" % (dense(filters), t(filters.shape)),
        "  %%conv_bias = arith.constant %s : %s" % (dense(conv_bias), t(conv_bias.shape)),
        "  %%head = arith.constant %s : %s" % (dense(head), t(head.shape)),
        "  %%head_bias = arith.constant %s : %s" % (dense(head_bias), t(head_bias.shape)),
        "  %e0 = tensor.empty() : tensor<1x14x14x8xf32>",
        "  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>",
        "  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}",
        "      ins(%image, %filters : tensor<1x16x16x1xf32>, tensor<3x3x1x8xf32>)",
        "      outs(%z0 : tensor<1x14x14x8xf32>) -> tensor<1x14x14x8xf32>",
        "  %cb = linalg.broadcast ins(%conv_bias : tensor<8xf32>) outs(%e0 : tensor<1x14x14x8xf32>) dimensions = [0, 1, 2]",
        "  %biased = arith.addf %conv, %cb : tensor<1x14x14x8xf32>",
        "  %relu = arith.maximumf %biased, %z0 : tensor<1x14x14x8xf32>",
        "  %window = tensor.empty() : tensor<2x2xf32>",
        "  %e1 = tensor.empty() : tensor<1x7x7x8xf32>",
        "  %low = linalg.fill ins(%lowest : f32) outs(%e1 : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>",
        "  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}",
        "      ins(%relu, %window : tensor<1x14x14x8xf32>, tensor<2x2xf32>)",
        "      outs(%low : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>",
        "  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x7x7x8xf32> into tensor<1x392xf32>",
        "  %e2 = tensor.empty() : tensor<1x10xf32>",
        "  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x10xf32>) -> tensor<1x10xf32>",
        "  %logits = linalg.matmul ins(%flat, %head : tensor<1x392xf32>, tensor<392x10xf32>)",
        "      outs(%z2 : tensor<1x10xf32>) -> tensor<1x10xf32>",
        "  %hb = linalg.broadcast ins(%head_bias : tensor<10xf32>) outs(%e2 : tensor<1x10xf32>) dimensions = [0]",
        "  %out = arith.addf %logits, %hb : tensor<1x10xf32>",
        "  return %out : tensor<1x10xf32>",
        "}",
        "",
    ])


def models():
    rng = np.random.default_rng(SEED)
    layers, x = mlp_weights(rng)
    cnn, image = cnn_weights(rng)
    return {
        "mlp": (mlp_source(layers), x, mlp_reference(layers, x)),
        "cnn": (cnn_source(cnn), image, cnn_reference(cnn, image)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if a sample differs from what would be written")
    parser.add_argument("--reference", metavar="DIR",
                        help="write NAME.input.npy and NAME.expected.npy into DIR")
    args = parser.parse_args()
    stale = []
    for name, (source, x, expected) in models().items():
        path = os.path.join(SAMPLES, name + ".mlir")
        if args.check:
            with open(path) as f:
                if f.read() != source:
                    stale.append(path)
        elif not args.reference:
            with open(path, "w") as f:
                f.write(source)
        if args.reference:
            os.makedirs(args.reference, exist_ok=True)
            np.save(os.path.join(args.reference, name + ".input.npy"), x)
            np.save(os.path.join(args.reference, name + ".expected.npy"), expected)
            print("%s: top-1 class %d" % (name, int(np.argmax(expected))))
    if stale:
        sys.exit("stale (rerun samples/models/generate_models.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
