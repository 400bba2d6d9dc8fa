#!/usr/bin/python3
"""Writes ONNX test directories for linear quantization (issue 36): QuantizeLinear / DequantizeLinear per tensor and
per axis, int8 and uint8, with constant and run-time scales and zero points, on tensors large enough that the
compiler shards them over the tiles and slices them (an NCHW map quantized per channel, then dequantized: a QDQ
pair as quantizers write them; the last axis; a 2-D bias of int32), and the opset 19 / 21 forms. Inputs put many
quotients exactly on halves (x = (k + 0.5) * scale) so that ties to even matter, and some far outside the range so
that saturation does. Expected outputs from numpy in float32 as ONNX's reference computes them:
    q = clip(rint(x / scale) + zero_point, lo, hi)      y = (float32(q) - float32(zero_point)) * scale
Then DynamicQuantizeLinear, MatMulInteger (per tensor, per row / column zero points, int8 / uint8 mixes, batched)
and ConvInteger (per-channel weight zero points, pads, strides, dilations, groups, auto_pad, 1-D), whose expected
int32 outputs numpy computes exactly in int64.

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


# DynamicQuantizeLinear: ONNX's function in float32 (the test generator's formulas).
for name, shape, lo_, hi_ in (("dynamic_quantize_mixed", (4, 33, 20), -3.0, 5.0),
                              ("dynamic_quantize_negative", (2, 100), -7.5, -0.25)):
    x = rng.uniform(lo_, hi_, size=shape).astype(np.float32)
    x_min, x_max = np.minimum(np.float32(0), x.min()), np.maximum(np.float32(0), x.max())
    scale = np.float32((x_max - x_min) / np.float32(255))
    zp = np.uint8(np.clip(np.rint(np.float32(0) - np.float32(x_min / scale)), 0, 255))
    y = np.clip(np.rint(np.divide(x, scale, dtype=np.float32)) + np.float32(zp), 0, 255).astype(np.uint8)
    write_test(out, name, [helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])], [("x", x)],
               [("y", y), ("s", np.array(scale, dtype=np.float32)), ("z", np.array(zp, dtype=np.uint8))], 11)


def ints(dtype, shape):
    lo, hi = RANGE[dtype]
    return rng.randint(lo, hi + 1, size=shape).astype(dtype)


def matmul_integer(name, a_shape, b_shape, at, bt, a_zp=None, b_zp=None, const_b=False, runtime_zp=False):
    """a_zp / b_zp: None (absent), "tensor" or "vector" (per row of A / per column of B)."""
    a, b = ints(at, a_shape), ints(bt, b_shape)
    inputs, inits, names = [("a", a)], [], ["a", "b"]
    (inits if const_b else inputs).append(("b", b))
    za = zb = np.int64(0)
    for which, kind, dtype, count in (("a_zp", a_zp, at, a_shape[-2]), ("b_zp", b_zp, bt, b_shape[-1])):
        if kind is None:
            names.append("")
            continue
        z = ints(dtype, () if kind == "tensor" else (count,))
        (inputs if runtime_zp else inits).append((which, z))
        names.append(which)
        if which == "a_zp":
            za = z.astype(np.int64).reshape(-1, 1) if kind == "vector" else z.astype(np.int64)
        else:
            zb = z.astype(np.int64)
    while names and names[-1] == "":
        names.pop()
    y = np.matmul(a.astype(np.int64) - za, b.astype(np.int64) - zb).astype(np.int32)
    write_test(out, name, [helper.make_node("MatMulInteger", names, ["y"])], inputs, [("y", y)], 10,
               initializers=inits)


matmul_integer("matmulinteger_u8_per_tensor", (3, 37, 70), (70, 45), np.uint8, np.uint8, "tensor", "tensor",
               const_b=True)
matmul_integer("matmulinteger_i8_u8_row_column", (64, 130), (130, 33), np.int8, np.uint8, "vector", "vector",
               runtime_zp=True)
matmul_integer("matmulinteger_batched_no_zero_point", (2, 3, 16, 40), (2, 3, 40, 24), np.uint8, np.int8)
matmul_integer("matmulinteger_i8_b_zero_point", (20, 300), (300, 50), np.int8, np.int8, None, "vector",
               const_b=True)


def conv_ref(x, w, pads, strides, dilations, group):
    """ONNX Conv on int64 (or float64) arrays, zero padding; pads [begin..., end...]."""
    nsp = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + nsp]) for i in range(nsp)])
    n, c = x.shape[:2]
    m, cg = w.shape[:2]
    k = w.shape[2:]
    outs = [(xp.shape[2 + i] - ((k[i] - 1) * dilations[i] + 1)) // strides[i] + 1 for i in range(nsp)]
    y = np.zeros((n, m) + tuple(outs), dtype=np.result_type(x, w))
    for oc in range(m):
        g = oc // (m // group)
        for tap in np.ndindex(*k):
            sl = tuple(slice(tap[i] * dilations[i], tap[i] * dilations[i] + (outs[i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(nsp))
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            y[:, oc] += np.tensordot(w[oc][(slice(None),) + tap], patch, axes=([0], [1]))
    return y


def conv_integer(name, x_shape, w_shape, xt, wt, x_zp, w_zp, pads=None, strides=None, dilations=None, group=1,
                 auto_pad=None, const_w=True):
    x, w = ints(xt, x_shape), ints(wt, w_shape)
    nsp = len(x_shape) - 2
    st, dl = strides or [1] * nsp, dilations or [1] * nsp
    inputs, inits, names = [("x", x)], [], ["x", "w"]
    (inits if const_w else inputs).append(("w", w))
    xz = ints(xt, ()) if x_zp else None
    wz = (ints(wt, (w_shape[0],)) if w_zp == "channel" else ints(wt, ())) if w_zp else None
    if xz is not None:
        inits.append(("x_zp", xz))
        names.append("x_zp")
    if wz is not None:
        if xz is None:
            names.append("")
        inits.append(("w_zp", wz))
        names.append("w_zp")
    if auto_pad == "SAME_UPPER":
        p = []
        for i in range(nsp):
            out_i = -(-x_shape[2 + i] // st[i])
            total = max(0, (out_i - 1) * st[i] + (w_shape[2 + i] - 1) * dl[i] + 1 - x_shape[2 + i])
            p.append((total // 2, total - total // 2))
        pd = [b for b, _ in p] + [e for _, e in p]
    else:
        pd = pads or [0] * (2 * nsp)
    xs = x.astype(np.int64) - (xz.astype(np.int64) if xz is not None else 0)
    wzs = wz.astype(np.int64).reshape((-1,) + (1,) * (len(w_shape) - 1)) if wz is not None else 0
    y = conv_ref(xs, w.astype(np.int64) - wzs, pd, st, dl, group).astype(np.int32)
    attrs = {"group": group}
    if strides:
        attrs["strides"] = strides
    if dilations:
        attrs["dilations"] = dilations
    if auto_pad:
        attrs["auto_pad"] = auto_pad
    elif pads:
        attrs["pads"] = pads
    write_test(out, name, [helper.make_node("ConvInteger", names, ["y"], **attrs)], inputs, [("y", y)], 10,
               initializers=inits)


conv_integer("convinteger_u8_per_channel", (2, 8, 19, 23), (16, 8, 3, 3), np.uint8, np.uint8, True, "channel",
             pads=[1, 1, 1, 1], strides=[2, 2])
conv_integer("convinteger_i8_groups_dilated", (1, 12, 15, 15), (6, 4, 3, 3), np.int8, np.int8, True, "channel",
             dilations=[2, 2], group=3, auto_pad="SAME_UPPER")
conv_integer("convinteger_1d_runtime_weights", (2, 5, 40), (7, 5, 4), np.uint8, np.int8, True, "tensor",
             pads=[2, 1], const_w=False)
conv_integer("convinteger_i8_no_zero_point", (1, 16, 12, 12), (32, 16, 1, 1), np.int8, np.int8, False, None)


def output_quantization(acc, ab_scale, yt):
    """y_scale and y_zero_point that map acc's range onto most of yt's (a few results saturate)."""
    lo, hi = RANGE[yt]
    y_scale = np.float32((acc.max() - acc.min()) * ab_scale / (hi - lo - 20))
    center = (acc.max() + acc.min()) / 2 * ab_scale / y_scale
    return y_scale, np.array(np.clip(np.rint((lo + hi) / 2 - center), lo, hi), dtype=yt)


def requantize(acc, a_scale, b_scale, y_scale, y_zp):
    """QLinearMatMul / QLinearConv's requantization as ONNX Runtime computes it: float32 throughout."""
    lo, hi = RANGE[y_zp.dtype.type]
    m = (np.float32(a_scale) * b_scale).astype(np.float32) / np.float32(y_scale)
    scaled = acc.astype(np.float32) * m.astype(np.float32)
    return np.clip(np.rint(scaled) + np.float32(y_zp), lo, hi).astype(y_zp.dtype)


def qlinear_matmul(name, a_shape, b_shape, at, bt, yt, const_b=False):
    a, b = ints(at, a_shape), ints(bt, b_shape)
    az, bz = ints(at, ()), ints(bt, ())
    sa, sb = np.float32(rng.uniform(0.001, 0.05)), np.float32(rng.uniform(0.001, 0.05))
    acc = np.matmul(a.astype(np.int64) - az, b.astype(np.int64) - bz)
    sy, yz = output_quantization(acc, float(sa) * float(sb), yt)
    y = requantize(acc, sa, np.array(sb, dtype=np.float32), sy, yz)
    names = ["a", "sa", "az", "b", "sb", "bz", "sy", "yz"]
    consts = [("sa", np.array(sa)), ("az", az), ("sb", np.array(sb)), ("bz", bz), ("sy", np.array(sy)), ("yz", yz)]
    inputs = [("a", a)]
    (consts if const_b else inputs).append(("b", b))
    write_test(out, name, [helper.make_node("QLinearMatMul", names, ["y"])], inputs, [("y", y)], 10,
               initializers=consts)


qlinear_matmul("qlinearmatmul_u8", (24, 96), (96, 40), np.uint8, np.uint8, np.uint8, const_b=True)
qlinear_matmul("qlinearmatmul_i8_batched", (2, 10, 33), (2, 33, 17), np.int8, np.int8, np.int8)


def qlinear_conv(name, x_shape, w_shape, xt, wt, yt, per_channel, bias, **attrs):
    x, w = ints(xt, x_shape), ints(wt, w_shape)
    m = w_shape[0]
    xz = ints(xt, ())
    wz = np.zeros(m if per_channel else (), dtype=wt)  # symmetric weights, as quantizers write them
    sx = np.float32(rng.uniform(0.005, 0.05))
    sw = rng.uniform(0.001, 0.02, size=m if per_channel else ()).astype(np.float32)
    nsp = len(x_shape) - 2
    pads, st, dl = attrs.get("pads", [0] * 2 * nsp), attrs.get("strides", [1] * nsp), attrs.get("dilations", [1] * nsp)
    acc = conv_ref(x.astype(np.int64) - xz, w.astype(np.int64), pads, st, dl, attrs.get("group", 1))
    b = rng.randint(-5000, 5000, size=m).astype(np.int32)
    if bias:
        acc = acc + b.reshape((-1,) + (1,) * nsp)
    swb = sw.reshape((-1,) + (1,) * nsp) if per_channel else sw
    sy, yz = output_quantization(acc, float(sx) * float(np.mean(sw)), yt)
    y = requantize(acc, sx, swb, sy, yz)
    names = ["x", "sx", "xz", "w", "sw", "wz", "sy", "yz"] + (["b"] if bias else [])
    consts = [("sx", np.array(sx)), ("xz", xz), ("w", w), ("sw", sw), ("wz", wz), ("sy", np.array(sy)),
              ("yz", yz)] + ([("b", b)] if bias else [])
    write_test(out, name, [helper.make_node("QLinearConv", names, ["y"], **attrs)], [("x", x)], [("y", y)], 10,
               initializers=consts)


qlinear_conv("qlinearconv_u8_per_channel_bias", (1, 8, 14, 14), (16, 8, 3, 3), np.uint8, np.int8, np.uint8, True,
             True, pads=[1, 1, 1, 1])
qlinear_conv("qlinearconv_i8_strided", (2, 6, 11, 9), (4, 3, 3, 3), np.int8, np.int8, np.int8, False, False,
             strides=[2, 2], group=2)


def qdq_conv_block(name):
    """A QDQ graph as quantization tools write one (no QOperator ops): the activation quantized and dequantized, int8
    weights per output channel and an int32 bias dequantized (constant: folded at compile time), a float Conv and
    Relu, then a QDQ MatMul; the dequantized conv weight is a graph output too. Expected values from numpy in
    float64 on the dequantized tensors."""
    x = rng.uniform(-2, 2, size=(1, 8, 12, 12)).astype(np.float32)
    sx, zx = np.float32(4.0 / 255), np.uint8(128)
    w = ints(np.int8, (16, 8, 3, 3))
    sw = rng.uniform(0.002, 0.01, size=16).astype(np.float32)
    b = rng.randint(-2000, 2000, size=16).astype(np.int32)
    sb = (sx * sw).astype(np.float32)
    wm = ints(np.int8, (16 * 12 * 12 // 16, 10))  # [144, 10] after the reshape of the Relu's [1, 16, 12, 12]
    swm = np.float32(0.01)
    xq = quantize(x, np.array(sx), np.array(zx), 0)
    xd = dequantize(xq, np.array(sx), np.array(zx), 0).astype(np.float64)
    wd = (w.astype(np.float64) * sw.reshape(-1, 1, 1, 1).astype(np.float32)).astype(np.float32).astype(np.float64)
    bd = (b.astype(np.float32) * sb).astype(np.float64)
    conv = conv_ref(xd, wd, [1, 1, 1, 1], [1, 1], [1, 1], 1).astype(np.float64) + bd.reshape(1, -1, 1, 1)
    relu = np.maximum(conv, 0)
    wmd = (wm.astype(np.float32) * swm).astype(np.float64)
    y = (relu.reshape(16, 144) @ wmd).astype(np.float32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["w", "sw"], ["wd"], axis=0),
             helper.make_node("DequantizeLinear", ["b", "sb"], ["bd"], axis=0),
             helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Reshape", ["r", "shape"], ["r2"]),
             helper.make_node("DequantizeLinear", ["wm", "swm"], ["wmd"]),
             helper.make_node("MatMul", ["r2", "wmd"], ["y"])]
    inits = [("sx", np.array(sx)), ("zx", np.array(zx)), ("w", w), ("sw", sw), ("b", b), ("sb", sb),
             ("shape", np.array([16, 144], dtype=np.int64)), ("wm", wm), ("swm", np.array(swm))]
    # The dequantized weight is an output too: the conv reads it as a HWIO constant, the output in ONNX's order.
    write_test(out, name, nodes, [("x", x)], [("y", y), ("wd", wd.astype(np.float32))], 13, initializers=inits)


qdq_conv_block("qdq_conv_relu_matmul")
