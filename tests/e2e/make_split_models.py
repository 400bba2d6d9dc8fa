#!/usr/bin/python3
"""Writes ONNX test directories whose layers do not fit the default 3 MiB SPM whole, so that the temporal split
has to cut what it could not before: conv and gemm weights by output channels (a constant loaded in parts,
step by step), a MatMul's run-time right operand by columns, a depthwise conv by channels, the layout change
(ChannelNorm) in front of a conv, a broadcasting Add, a Transpose and a MaxPool. Expected outputs come from
numpy in float64 (im2col for the convs), not from the compiler.

Usage: make_split_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from make_split_models_common import conv2d, randn
from onnx_testdir import write_test

out = sys.argv[1]
f32 = np.float32

# A 3x3 conv with 512 input and 512 output channels (ResNet-50's last stage): 9.4 MB of weights, cut by output
# channels; the bias is cut with them.
x, w, b = randn(1, 512, 7, 7), randn(512, 512, 3, 3, scale=1 / 48), randn(512)
write_test(out, "conv_512x512_weights_split", [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
           [("x", x)], [("y", conv2d(x, w, b, pad=1).astype(f32))], opset=13, initializers=[("w", w), ("b", b)])

# A classifier layer as PyTorch exports it (Gemm, transB = 1): 8192 x 512 weights (16 MB) cut by columns.
x, w, b = randn(1, 8192), randn(512, 8192, scale=1 / 90), randn(512)
y = x.astype(np.float64) @ w.astype(np.float64).T + b
write_test(out, "gemm_8192x512_weights_split",
           [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)],
           [("x", x)], [("y", y.astype(f32))], opset=13, initializers=[("w", w), ("b", b)])

# A MatMul of two run-time operands, the right one 2048 x 1024 (8 MB): cut by columns.
a, bm = randn(16, 2048), randn(2048, 1024, scale=1 / 45)
write_test(out, "matmul_runtime_rhs_split", [helper.make_node("MatMul", ["a", "b"], ["y"])],
           [("a", a), ("b", bm)], [("y", (a.astype(np.float64) @ bm).astype(f32))], opset=13)

# A depthwise 3x3 conv on 1 x 96 x 112 x 112 (MobileNetV2's first expanded block, 4.8 MB in and out), a conv
# on an NCHW graph input (its ChannelNorm to NHWC is 2 x 3.2 MB) and a MaxPool after it.
x, wd = randn(1, 96, 112, 112), randn(96, 1, 3, 3, scale=1 / 3)
write_test(out, "depthwise_96x112x112", [helper.make_node("Conv", ["x", "w"], ["y"], group=96, pads=[1, 1, 1, 1])],
           [("x", x)], [("y", conv2d(x, wd, pad=1, group=96).astype(f32))], opset=13, initializers=[("w", wd)])
x, w = randn(1, 64, 112, 112), randn(16, 64, 1, 1, scale=1 / 8)
c = conv2d(x, w)
pooled = c.reshape(1, 16, 56, 2, 56, 2).max(axis=(3, 5))
write_test(out, "channelnorm_conv_maxpool_64x112x112",
           [helper.make_node("Conv", ["x", "w"], ["c"]),
            helper.make_node("MaxPool", ["c"], ["y"], kernel_shape=[2, 2], strides=[2, 2])],
           [("x", x)], [("y", pooled.astype(f32))], opset=13, initializers=[("w", w)])

# A bias added as a separate broadcasting Add (LeNet as some exporters write it) on 1 x 64 x 112 x 112, then a
# Transpose of a 4 MB tensor.
x, bias = randn(1, 64, 112, 112), randn(64, 1, 1)
write_test(out, "broadcast_add_64x112x112", [helper.make_node("Add", ["x", "bias"], ["y"])],
           [("x", x)], [("y", x + bias)], opset=13, initializers=[("bias", bias)])
x = randn(64, 128, 128)
write_test(out, "transpose_64x128x128", [helper.make_node("Transpose", ["x"], ["y"], perm=[2, 0, 1])],
           [("x", x)], [("y", np.ascontiguousarray(x.transpose(2, 0, 1)))], opset=13)

# Attention probabilities as BERT computes them: Softmax over the last axis of [1, 12, 32, 32] (OpLib's rows
# view keeps the batch of 1 its Tensor layout needs).
x = randn(1, 12, 32, 32)
e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
write_test(out, "softmax_attention_1x12x32x32", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
           [("x", x)], [("y", (e / e.sum(axis=-1, keepdims=True)).astype(f32))], opset=13)
