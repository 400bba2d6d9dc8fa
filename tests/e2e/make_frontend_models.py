#!/usr/bin/python3
"""Writes ONNX test directories for what the importer's front end takes beyond the ONNX backend data: LRN
(AlexNet's and GoogLeNet's local response normalisation: odd and even windows, rank 3, opset 1 and 13), a
symbolic batch (compiled as 1), shape subgraphs and ConstantOfShape weights folded at import, models newer
than the linked ONNX 1.12 (IR 9/10, opsets 18-21: Reduce* with axes as an input, Split num_outputs, Pad axes,
Resize-19 half_pixel_symmetric with axes, AveragePool-19 dilations, Mish-18, Gelu-20), and a Gemm weight built by a
ConstantOfShape too large to fold (kept a splat). Expected outputs come
from numpy (float64, rounded to float32) following the ONNX operator docs, not from the compiler.

Usage: make_frontend_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import math
import sys

import numpy as np
from onnx import TensorProto, helper

from onnx_testdir import write_test

rng = np.random.RandomState(67)
out = sys.argv[1]


def write(name, nodes, inputs, outputs, opset, ir=8, initializers=(), symbolic=None):
    write_test(out, name, nodes, inputs, outputs, opset, initializers=initializers, ir=ir, symbolic=symbolic)


def f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def lrn(x, size, alpha, beta, bias):
    """ONNX LRN: square_sum over channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2) within [0, C)."""
    x64 = x.astype(np.float64)
    sq = np.zeros_like(x64)
    channels = x.shape[1]
    for c in range(channels):
        lo, hi = max(0, c - (size - 1) // 2), min(channels - 1, c + int(math.ceil((size - 1) / 2)))
        sq[:, c] = np.sum(x64[:, lo:hi + 1] ** 2, axis=1)
    return f32(x64 / (bias + alpha / size * sq) ** beta)


# LRN as AlexNet writes it (size 5 here 3 over 8 channels), an even window (asymmetric: 1 before, 2 after) at
# opset 12 (LRN-1), and a rank-3 input with a window wider than half the channels.
for name, shape, size, alpha, beta, bias, opset in (("lrn_size3", (1, 8, 5, 5), 3, 0.3, 0.75, 1.5, 13),
                                                    ("lrn_size4_even_opset12", (2, 6, 3, 4), 4, 0.2, 0.6, 2.0, 12),
                                                    ("lrn_rank3_size5", (2, 5, 7), 5, 1.0, 0.5, 1.0, 13)):
    x = rng.randn(*shape).astype(np.float32)
    node = helper.make_node("LRN", ["x"], ["y"], size=size, alpha=alpha, beta=beta, bias=bias)
    write(name, [node], [("x", x)], [("y", lrn(x, size, alpha, beta, bias))], opset=opset)

# A symbolic batch (compiled as 1: the data set has one image): Conv, LRN, Relu, a Flatten to [batch, -1] by a
# shape subgraph (Shape -> Gather -> Unsqueeze -> Concat -> Reshape), a bias built as ConstantOfShape + Add.
x = rng.randn(1, 3, 6, 6).astype(np.float32)
w = (rng.randn(4, 3, 3, 3) * 0.3).astype(np.float32)
b = rng.randn(4 * 4 * 4).astype(np.float32)
conv = np.zeros((1, 4, 4, 4))
for o in range(4):
    for i in range(4):
        for j in range(4):
            conv[0, o, i, j] = np.sum(x[0, :, i:i + 3, j:j + 3].astype(np.float64) * w[o])
y = np.maximum(lrn(f32(conv), 3, 0.5, 0.75, 1.0).astype(np.float64), 0).reshape(1, -1) + (0.25 + b.astype(np.float64))
nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"]),
    helper.make_node("LRN", ["c"], ["n"], size=3, alpha=0.5, beta=0.75, bias=1.0),
    helper.make_node("Relu", ["n"], ["r"]),
    helper.make_node("Shape", ["r"], ["s"]),
    helper.make_node("Gather", ["s", "zero"], ["batch"], axis=0),
    helper.make_node("Unsqueeze", ["batch", "axes0"], ["batch1"]),
    helper.make_node("Concat", ["batch1", "minus1"], ["flat_shape"], axis=0),
    helper.make_node("Reshape", ["r", "flat_shape"], ["flat"]),
    helper.make_node("ReduceProd", ["s"], ["count"], axes=[0], keepdims=1),
    helper.make_node("Div", ["count", "batch1"], ["features"]),
    helper.make_node("ConstantOfShape", ["features"], ["quarter"], value=helper.make_tensor("v", TensorProto.FLOAT, [1],
                                                                                            [0.25])),
    helper.make_node("Add", ["quarter", "b"], ["bias"]),
    helper.make_node("Add", ["flat", "bias"], ["y"]),
]
inits = [("w", w), ("b", b), ("zero", np.array(0, np.int64)), ("axes0", np.array([0], np.int64)),
         ("minus1", np.array([-1], np.int64))]
write("symbolic_batch_conv_lrn", nodes, [("x", x)], [("y", f32(y))], opset=13, initializers=inits,
      symbolic={"x": {0: "batch_size"}, "y": {0: "batch_size"}})

# IR 9 / opset 18: ReduceMean with axes as an input, Split into num_outputs parts that do not divide the extent
# (the last smaller), Pad with an axes input, ReduceMax with noop_with_empty_axes, Mish.
x = rng.randn(2, 7, 4).astype(np.float32)
m = x.astype(np.float64).mean(axis=-1)
a, bb, c = m[:, 0:3], m[:, 3:6], m[:, 6:7]
p = np.pad(c, ((0, 0), (1, 2)))
mish = a * np.tanh(np.log1p(np.exp(a)))
nodes = [
    helper.make_node("ReduceMean", ["x", "axes"], ["m"], keepdims=0),
    helper.make_node("Split", ["m"], ["a", "b", "c"], axis=1, num_outputs=3),
    helper.make_node("Pad", ["c", "pads", "", "padaxes"], ["p"]),
    helper.make_node("Mish", ["a"], ["n"]),
    helper.make_node("Concat", ["n", "b", "p"], ["y"], axis=1),
    helper.make_node("ReduceMax", ["x"], ["same"], noop_with_empty_axes=1),
]
inits = [("axes", np.array([-1], np.int64)), ("pads", np.array([1, 2], np.int64)),
         ("padaxes", np.array([-1], np.int64))]
write("opset18_ir9_forms", nodes, [("x", x)], [("y", f32(np.concatenate([mish, bb, p], axis=1))), ("same", x)],
      opset=18, ir=9, initializers=inits)


def resize_linear_half_pixel_symmetric(data, axis, scale):
    """Resize-19 linear along one axis, half_pixel_symmetric: out = floor(in * scale), x_original =
    in / 2 * (1 - out / (scale * in)) + (x + 0.5) / scale - 0.5, neighbours clamped to the edge."""
    n = data.shape[axis]
    width = np.float32(scale) * np.float32(n)
    outn = int(math.floor(width))
    moved = np.moveaxis(data.astype(np.float64), axis, -1)
    res = np.zeros(moved.shape[:-1] + (outn,))
    for xo in range(outn):
        xorig = n / 2 * (1 - outn / float(width)) + (xo + 0.5) / float(scale) - 0.5
        x0 = math.floor(xorig)
        r = xorig - x0
        i0, i1 = min(max(x0, 0), n - 1), min(max(x0 + 1, 0), n - 1)
        res[..., xo] = (1 - r) * moved[..., i0] + r * moved[..., i1]
    return np.moveaxis(res, -1, axis)


# IR 10 / opset 21: Resize-19 linear, half_pixel_symmetric, scales for axes [2, 3] only (5 -> 2, 6 -> 3: the
# rounding the mode corrects for), AveragePool-19 with dilations, Gelu-20.
x = rng.randn(1, 2, 5, 6).astype(np.float32)
r = resize_linear_half_pixel_symmetric(resize_linear_half_pixel_symmetric(x, 2, 0.5), 3, 0.6)
pool = np.zeros((1, 2, 3, 4))
for i in range(3):
    for j in range(4):
        pool[:, :, i, j] = x[:, :, i:i + 3:2, j:j + 3:2].astype(np.float64).mean(axis=(2, 3))
x64 = x.astype(np.float64)
gelu = 0.5 * x64 * (1 + np.vectorize(math.erf)(x64 / math.sqrt(2)))
nodes = [
    helper.make_node("Resize", ["x", "", "scales"], ["r"], mode="linear", axes=[2, 3],
                     coordinate_transformation_mode="half_pixel_symmetric"),
    helper.make_node("AveragePool", ["x"], ["pool"], kernel_shape=[2, 2], dilations=[2, 2]),
    helper.make_node("Gelu", ["x"], ["g"]),
]
write("opset21_ir10_forms", nodes, [("x", x)], [("r", f32(r)), ("pool", f32(pool)), ("g", f32(gelu))], opset=21,
      ir=10, initializers=[("scales", np.array([0.5, 0.6], np.float32))])

# A Linear whose weight the model builds at run time from a ConstantOfShape, too large to fold at import
# (4096 x 1100 > 2^22 elements; VGG's 25088 x 4096 written this way was refused): the ConstantOfShape stays a splat
# (one value stored), and so does its Mul by a scalar and the transposed B of the Gemm (tx8be-fold-constants);
# consts.bin then holds every weight. A weight wrong anywhere (only the first element written, ...) changes y.
x = rng.rand(2, 1100).astype(np.float32)
bias = rng.randn(4096).astype(np.float32)
w = np.float32(np.float32(0.5) * np.float32(0.02))
y = x.astype(np.float64) @ np.full((1100, 4096), float(w)) + bias.astype(np.float64)
nodes = [
    helper.make_node("ConstantOfShape", ["wshape"], ["half"],
                     value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.5])),
    helper.make_node("Mul", ["half", "scale"], ["w"]),
    helper.make_node("Gemm", ["x", "w", "bias"], ["y"], transB=1),
]
write("constantofshape_splat_gemm", nodes, [("x", x)], [("y", f32(y))], opset=13,
      initializers=[("wshape", np.array([4096, 1100], np.int64)), ("scale", np.array(0.02, np.float32)),
                    ("bias", bias)])
