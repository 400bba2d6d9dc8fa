#!/usr/bin/python3
"""Writes ONNX test directories for linear quantization (issue 36): QuantizeLinear / DequantizeLinear per tensor and
per axis, int8 and uint8, with constant and run-time scales and zero points, on tensors large enough that the
compiler shards them over the tiles and slices them (an NCHW map quantized per channel, then dequantized: a QDQ
pair as quantizers write them; the last axis; a 2-D bias of int32), and the opset 19 / 21 forms. Inputs put many
quotients exactly on halves (x = (k + 0.5) * scale) so that ties to even matter, and some far outside the range so
that saturation does. Expected outputs from numpy in float32 as ONNX's reference computes them:
    q = clip(rint(x / scale) + zero_point, lo, hi)      y = (float32(q) - float32(zero_point)) * scale

Usage: make_quant_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import os
import sys

import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_testdir import write_test  # noqa: E402

rng = np.random.RandomState(36)
out = sys.argv[1]
RANGE = {np.int8: (-128, 127), np.uint8: (0, 255)}


def bshape(scale, rank, axis):
    """scale's shape for numpy broadcasting along `axis` (per tensor: a scalar)."""
    if scale.ndim == 0:
        return scale
    shape = [1] * rank
    shape[axis] = scale.size
    return scale.reshape(shape)


def quantize(x, scale, zp, axis):
    lo, hi = RANGE[zp.dtype.type]
    s = bshape(scale, x.ndim, axis)
    z = bshape(zp, x.ndim, axis).astype(np.float32)
    q = np.rint(np.divide(x, s, dtype=np.float32)) + z
    return np.clip(q, lo, hi).astype(zp.dtype)


def dequantize(q, scale, zp, axis):
    s = bshape(scale, q.ndim, axis)
    z = bshape(zp, q.ndim, axis).astype(np.float32)
    return ((q.astype(np.float32) - z) * s).astype(np.float32)


def data(shape, scale, zp, axis):
    """Values whose quotients are halves, integers, arbitrary, or far outside the quantized range."""
    s = np.broadcast_to(bshape(scale, len(shape), axis), shape).astype(np.float32)
    k = rng.randint(-200, 200, size=shape).astype(np.float32)
    kind = rng.randint(0, 4, size=shape)
    x = np.where(kind == 0, (k + 0.5) * s, np.where(kind == 1, k * s, rng.uniform(-150, 150, size=shape) * s))
    x = np.where(rng.uniform(size=shape) < 0.02, k * 1000, x)
    return x.astype(np.float32)


def qdq(name, shape, qtype, axis, opset=13, runtime=False):
    """x -> QuantizeLinear -> q (an output) -> DequantizeLinear -> y."""
    c = shape[axis] if axis is not None else 1
    scale = (rng.uniform(0.01, 0.5, size=c) if axis is not None else np.array(rng.uniform(0.01, 0.5))).astype(
        np.float32)
    lo, hi = RANGE[qtype]
    zp = rng.randint(lo // 2, hi // 2 + 1, size=c if axis is not None else ()).astype(qtype)
    x = data(shape, scale, zp, axis or 0)
    q = quantize(x, scale, zp, axis or 0)
    y = dequantize(q, scale, zp, axis or 0)
    attrs = {"axis": axis} if axis is not None else {}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], **attrs),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], **attrs)]
    if runtime:
        write_test(out, name, nodes, [("x", x), ("s", scale), ("z", zp)], [("q", q), ("y", y)], opset)
    else:
        write_test(out, name, nodes, [("x", x)], [("q", q), ("y", y)], opset, initializers=[("s", scale), ("z", zp)],
                   ir=10 if opset > 17 else None)


qdq("qdq_nchw_per_channel_int8", (2, 32, 20, 24), np.int8, 1)
qdq("qdq_nchw_per_channel_uint8", (1, 48, 33, 17), np.uint8, 1)
qdq("qdq_last_axis_uint8", (6, 40, 96), np.uint8, 2)
qdq("qdq_per_tensor_runtime_int8", (4, 64, 70), np.int8, None, runtime=True)
qdq("qdq_per_axis_runtime_uint8", (3, 5, 7, 11), np.uint8, -2, runtime=True)
qdq("qdq_opset19_int8", (2, 16, 9, 9), np.int8, 1, opset=19)
qdq("qdq_opset21_uint8", (2, 24, 50), np.uint8, 1, opset=21)

# DequantizeLinear of an int32 bias (zero point 0): int32 rounded to float32 first, as numpy's astype.
b = rng.randint(-(2**31), 2**31 - 1, size=(16, 300), dtype=np.int64).astype(np.int32)
bs = np.float32(0.0007)
write_test(out, "dequantize_int32_bias", [helper.make_node("DequantizeLinear", ["b", "s"], ["y"])], [("b", b)],
           [("y", (b.astype(np.float32) * bs).astype(np.float32))], 13, initializers=[("s", np.array(bs))])
