#!/usr/bin/python3
"""Writes ONNX test directories for the one-hot indexing compositions in forms the ONNX backend data lacks:
int32 data at the int32 extremes (selected in two 16-bit halves), negative indices, batch_dims, index tuples
of depth 2 and 3, duplicate indices, a condition shorter than its axis, 3-D ReverseSequence, 1 x 1 and 3 x 3
determinants; embeddings (Gather of a constant table's rows, op_gather_rows on the RDMA). Expected outputs come from numpy (np.take_along_axis, np.compress, np.linalg.det and the
loops below, which follow the ONNX operator docs), not from the compiler.

Usage: make_indexing_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from onnx_testdir import write_test

rng = np.random.RandomState(53)
out = sys.argv[1]
i32 = np.iinfo(np.int32)
extremes = np.array([i32.min, i32.max, -1, 0, 1, 65535, 65536, -65536, -65537, 123456789, -987654321, i32.min + 1],
                    dtype=np.int32)


def int_data(shape):
    return rng.choice(extremes, size=shape).astype(np.int32)


# An embedding (Gather of a constant table's rows, op_gather_rows): int64 indices [2, 7], negative and repeated
# ones, then a position table added (fused into the Gather's group)
emb_rng = np.random.RandomState(34)  # its own stream: the models below keep their data
table = emb_rng.randn(50, 24).astype(np.float32)
idx = emb_rng.randint(-50, 50, size=(2, 7)).astype(np.int64)
idx[1, 3] = idx[0, 1]
pos = emb_rng.randn(7, 24).astype(np.float32)
write_test(out, "embedding_rows", [helper.make_node("Gather", ["table", "idx"], ["rows"], axis=0),
                                   helper.make_node("Add", ["rows", "pos"], ["y"])],
           [("idx", idx)], [("y", table[idx % 50] + pos)], opset=13, initializers=[("table", table), ("pos", pos)])

# GatherElements of int32 data along axis 1, negative indices included
data = int_data((3, 4))
idx = rng.randint(-4, 4, size=(3, 5)).astype(np.int64)
write_test(out, "gatherelements_int32_extremes", [helper.make_node("GatherElements", ["data", "idx"], ["y"], axis=1)],
           [("data", data), ("idx", idx)], [("y", np.take_along_axis(data, idx % 4, axis=1))], opset=13)

# GatherND, int32 data, batch_dims 1, negative indices: y[b, i] = data[b, idx[b, i, 0]]
data = int_data((2, 3, 4))
idx = np.array([[[-1], [0]], [[2], [-3]]], dtype=np.int64)
y = np.stack([data[b][idx[b, :, 0] % 3] for b in range(2)])
write_test(out, "gathernd_int32_batch_dims_negative", [helper.make_node("GatherND", ["data", "idx"], ["y"], batch_dims=1)],
           [("data", data), ("idx", idx)], [("y", y)], opset=13)

# GatherND, float data, index tuples of depth 2: y[i] = data[idx[i, 0], idx[i, 1]]
data = rng.randn(3, 4, 2).astype(np.float32)
idx = np.array([[0, 0], [2, -1], [-3, 1], [1, 3], [2, 2]], dtype=np.int64)
y = np.stack([data[a, b] for a, b in idx])
write_test(out, "gathernd_float_depth2", [helper.make_node("GatherND", ["data", "idx"], ["y"])],
           [("data", data), ("idx", idx)], [("y", y)], opset=13)


def scatter_nd(data, idx, updates, reduction):
    y = data.copy()
    for i in np.ndindex(idx.shape[:-1]):
        at = tuple(idx[i])
        if reduction == "add":
            y[at] += updates[i]
        elif reduction == "mul":
            y[at] *= updates[i]
        else:
            y[at] = updates[i]
    return y


# ScatterND mul with index tuples of depth 2, a duplicate pair (multiplied in index order)
data = rng.randn(2, 3, 2).astype(np.float32)
idx = np.array([[1, 0], [0, 2], [1, 0]], dtype=np.int64)
upd = rng.randn(3, 2).astype(np.float32)
write_test(out, "scatternd_mul_depth2_duplicates",
           [helper.make_node("ScatterND", ["data", "idx", "upd"], ["y"], reduction="mul")],
           [("data", data), ("idx", idx), ("upd", upd)], [("y", scatter_nd(data, idx, upd, "mul"))], opset=16)

# ScatterND add of single elements (depth 3 = rank), duplicates summed
data = rng.randn(2, 2, 3).astype(np.float32)
idx = np.array([[0, 1, 2], [1, 0, 0], [0, 1, 2], [1, 1, 1]], dtype=np.int64)
upd = rng.randn(4).astype(np.float32)
write_test(out, "scatternd_add_elements", [helper.make_node("ScatterND", ["data", "idx", "upd"], ["y"], reduction="add")],
           [("data", data), ("idx", idx), ("upd", upd)], [("y", scatter_nd(data, idx, upd, "add"))], opset=16)

# ScatterND none, rows of a matrix
data = rng.randn(4, 3).astype(np.float32)
idx = np.array([[3], [1]], dtype=np.int64)
upd = rng.randn(2, 3).astype(np.float32)
write_test(out, "scatternd_rows", [helper.make_node("ScatterND", ["data", "idx", "upd"], ["y"])],
           [("data", data), ("idx", idx), ("upd", upd)], [("y", scatter_nd(data, idx, upd, "none"))], opset=16)

# Compress along axis 1 with a condition shorter than the axis
x = rng.randn(2, 5, 3).astype(np.float32)
cond = np.array([True, False, True])
write_test(out, "compress_short_condition", [helper.make_node("Compress", ["x", "cond"], ["y"], axis=1)],
           [("x", x), ("cond", cond)], [("y", np.compress(cond, x, axis=1))], opset=11)

# ReverseSequence of a [time, batch, features] tensor
x = rng.randn(3, 4, 2).astype(np.float32)
lens = np.array([1, 3, 2, 3], dtype=np.int64)
y = x.copy()
for b, n in enumerate(lens):
    y[:n, b] = x[:n, b][::-1]
write_test(out, "reversesequence_3d", [helper.make_node("ReverseSequence", ["x", "lens"], ["y"], time_axis=0, batch_axis=1)],
           [("x", x), ("lens", lens)], [("y", y)], opset=10)

# Det of 3 x 3 and 1 x 1 matrices
for n in (3, 1):
    x = rng.randn(2, n, n).astype(np.float32)
    write_test(out, "det_%dx%d" % (n, n), [helper.make_node("Det", ["x"], ["y"])], [("x", x)],
               [("y", np.linalg.det(x.astype(np.float64)).astype(np.float32))], opset=11)

# Slice with run-time starts and steps but constant axes (an initializer): negative start, negative step,
# an out-of-range start clamped
x = rng.randn(6, 5, 4).astype(np.float32)
starts, ends, steps = np.array([-2, 10, 0]), np.array([-6, -100, 4]), np.array([-1, -2, 3])
axes = np.array([0, 1, 2])
write_test(out, "slice_runtime_starts_constant_axes",
           [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
           [("x", x), ("starts", starts), ("steps", steps)], [("y", x[-2:-6:-1, 10:-100:-2, 0:4:3])], opset=13,
           initializers=[("ends", ends), ("axes", axes)])

# Slice with run-time axes, listed out of order and negative; dim 0 not listed
starts, ends, axes, steps = np.array([1, 3]), np.array([4, 0]), np.array([-1, 1]), np.array([2, -1])
write_test(out, "slice_runtime_axes", [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])],
           [("x", x), ("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)],
           [("y", x[:, 3:0:-1, 1:4:2])], opset=13)


def pad(x, pads, mode, value=0):
    """ONNX Pad: np.pad for the growing part, then the negative pads crop."""
    r = x.ndim
    grow = [(max(pads[d], 0), max(pads[d + r], 0)) for d in range(r)]
    y = np.pad(x, grow, mode="constant", constant_values=value) if mode == "constant" else np.pad(x, grow, mode=mode)
    crop = tuple(slice(max(-pads[d], 0), y.shape[d] - max(-pads[d + r], 0)) for d in range(r))
    return y[crop]


# Pad with run-time pads: constant with a run-time value and a crop, reflect and edge on int32 data
x = rng.randn(3, 4).astype(np.float32)
pads, value = np.array([2, -1, 0, 3]), np.array(-7.5, dtype=np.float32)
write_test(out, "pad_runtime_constant_crop", [helper.make_node("Pad", ["x", "pads", "value"], ["y"], mode="constant")],
           [("x", x), ("pads", pads), ("value", value)], [("y", pad(x, pads, "constant", value))], opset=13)
xi = int_data((3, 4))
pads = np.array([2, 1, 1, 3])
for mode in ("reflect", "edge"):
    write_test(out, "pad_runtime_%s_int32" % mode, [helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)],
               [("x", xi), ("pads", pads)], [("y", pad(xi, pads, mode))], opset=13)

# An embedding whose table (1100 x 768 f32, 3.4 MB) is larger than a tile's SPM: read in place from DDR, row by
# row; int32 indices [64] and a row with infinities (op_gather_rows copies the bits)
table = emb_rng.randn(1100, 768).astype(np.float32)
table[5, :2] = [np.inf, -np.inf]
idx = emb_rng.randint(-1100, 1100, size=64).astype(np.int32)
idx[:2] = [5, -1095]
write_test(out, "embedding_table_beyond_spm", [helper.make_node("Gather", ["table", "idx"], ["y"], axis=0)],
           [("idx", idx)], [("y", table[idx % 1100])], opset=13, initializers=[("table", table)])
