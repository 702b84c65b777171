"""NumPy references for the e2e tests of linalg convolution, pooling and
softmax (linalg_conv_pool*.mlir, linalg_conv_workgroups.mlir,
linalg_softmax.mlir, linalg_vectorized_remainders.mlir).

usage: linalg_reference.py CASE inputs PREFIX
       linalg_reference.py CASE check PREFIX RESULT_SUFFIX...

`inputs` writes PREFIX.inN.npy (random f32 from a fixed seed, shapes of the
case); `check` loads them, computes the case's results with NumPy and
compares each PREFIX.SUFFIX.outN.npy with them (rtol 1e-5, atol 1e-5:
float32 sums in another order; exp within MLIR's polynomial approximation;
a case may state a wider bound as its third element).
"""
import sys

import numpy as np


def conv_nhwc(x, f, strides, dilations):
    """x: N H W C, f: KH KW C F (linalg.conv_2d_nhwc_hwcf)."""
    n, h, w, c = x.shape
    kh, kw, _, fo = f.shape
    oh = (h - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (w - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, oh, ow, fo), np.float32)
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            patch = x[:, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                      c0:c0 + strides[1] * (ow - 1) + 1:strides[1], :]
            out += np.einsum("nhwc,cf->nhwf", patch, f[i, j])
    return out


def conv_nchw(x, f, strides, dilations):
    """x: N C H W, f: F C KH KW (linalg.conv_2d_nchw_fchw)."""
    out = conv_nhwc(x.transpose(0, 2, 3, 1), f.transpose(2, 3, 1, 0),
                    strides, dilations)
    return out.transpose(0, 3, 1, 2)


def windows(x, kh, kw, strides, dilations):
    """Every window element of x (N H W C): a list of N OH OW C arrays."""
    n, h, w, c = x.shape
    oh = (h - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (w - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    out = []
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            out.append(x[:, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                         c0:c0 + strides[1] * (ow - 1) + 1:strides[1], :])
    return out


def depthwise(x, f, strides, dilations):
    """x: N H W C, f: KH KW C (linalg.depthwise_conv_2d_nhwc_hwc)."""
    kh, kw, _ = f.shape
    parts = windows(x, kh, kw, strides, dilations)
    return sum(p * f[k // kw, k % kw] for k, p in enumerate(parts))


def pool_max(x, kh, kw, strides, dilations):
    return np.maximum.reduce(windows(x, kh, kw, strides, dilations))


def pool_sum(x, kh, kw, strides, dilations):
    return np.add.reduce(windows(x, kh, kw, strides, dilations))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def window_case(shapes):
    def reference(img, f, nchw, ff, dw):
        return [conv_nhwc(img, f, (2, 2), (1, 2)),
                conv_nchw(nchw, ff, (1, 1), (1, 1)),
                depthwise(img, dw, (1, 2), (2, 1)),
                pool_max(img, 2, 2, (2, 2), (1, 1)),
                pool_sum(img, 3, 2, (2, 3), (1, 1))]
    return shapes, reference


CASES = {
    # linalg_conv_pool.mlir
    "window": window_case([(2, 9, 10, 3), (3, 2, 3, 4), (1, 3, 7, 7),
                           (4, 3, 3, 3), (3, 3, 3)]),
    # linalg_conv_pool_dynamic.mlir, at two sizes
    "window_dynamic": window_case([(2, 9, 10, 3), (3, 2, 3, 4), (1, 3, 7, 7),
                                   (4, 3, 3, 3), (3, 3, 3)]),
    "window_dynamic_small": window_case([(1, 5, 6, 2), (2, 2, 2, 3),
                                         (2, 2, 4, 5), (1, 2, 2, 2),
                                         (2, 2, 2)]),
    # linalg_conv_workgroups.mlir
    "conv_split": ([(1, 24, 24, 4), (3, 3, 4, 8)],
                   lambda x, f: [conv_nhwc(x, f, (2, 2), (1, 1))]),
    # linalg_vectorized_remainders.mlir: matmul panels, blocks and
    # convolution tiles with remainders (k 300 = 256 + 44: rtol and atol
    # 1e-4 for sums of 300 products in another order)
    "matmul_remainders": ([(3, 13, 300), (3, 300, 40), (20, 70), (70, 50)],
                          lambda a, b, x, y: [a @ b, x @ y], 1e-4),
    "matmul_dynamic": ([(21, 70), (70, 50)], lambda x, y: [x @ y], 1e-4),
    "vector_products": ([(37, 300), (300,), (300, 70), (1000,), (1000,)],
                        lambda a, x, b, u, v: [a @ x, x @ b,
                                               np.array(u @ v)], 1e-4),
    "nchw_remainders": ([(2, 3, 12, 75), (12, 3, 3, 3)],
                        lambda x, f: [conv_nchw(x, f, (1, 2), (2, 1))]),
    # linalg_vectorized_remainders.mlir: an i1 result of 600 elements
    "compare_i1": ([(600,), (600,)], lambda a, b: [a < b]),
    "window_remainders": ([(2, 11, 25, 5), (3, 2, 5, 40), (1, 10, 21, 48),
                           (3, 3, 48)],
                          lambda x, f, img, dw: [
                              conv_nhwc(x, f, (1, 2), (2, 1)),
                              depthwise(img, dw, (2, 1), (1, 2)),
                              pool_max(img, 2, 2, (1, 1), (1, 1)),
                              pool_sum(img, 3, 3, (2, 2), (1, 1))]),
    # linalg_softmax.mlir
    "softmax": ([(3, 5)], lambda x: [softmax(x, 1), softmax(x, 0),
                                     np.exp(x)]),
    "softmax_dynamic": ([(6, 17)], lambda x: [softmax(x, 1)]),
}


def main(argv):
    case, command, prefix = argv[:3]
    shapes, reference = CASES[case][:2]
    tolerance = CASES[case][2] if len(CASES[case]) > 2 else 1e-5
    if command == "inputs":
        rng = np.random.default_rng(20261202)
        for i, shape in enumerate(shapes):
            np.save("%s.in%d.npy" % (prefix, i),
                    rng.standard_normal(shape).astype(np.float32))
        return
    inputs = [np.load("%s.in%d.npy" % (prefix, i)) for i in range(len(shapes))]
    expected = reference(*inputs)
    for suffix in argv[3:]:
        for i, e in enumerate(expected):
            got = np.load("%s.%s.out%d.npy" % (prefix, suffix, i))
            if e.dtype == np.bool_:
                np.testing.assert_array_equal(
                    got, e, err_msg="%s result %d (%s)" % (case, i, suffix))
                continue
            np.testing.assert_allclose(
                got, e, rtol=tolerance, atol=tolerance,
                err_msg="%s result %d (%s)" % (case, i, suffix))
    print("%s: %d results match NumPy" % (case, len(expected)))


if __name__ == "__main__":
    main(sys.argv[1:])
