#!/usr/bin/python3
"""Writes a model whose Flatten moves bytes: conv (NHWC on the device) -> relu -> Flatten of a 3x4x4 map
(row-major NCHW order needed) -> Gemm -> output, plus one input. The layout passes must leave a ChannelNorm
(NHWC -> NCHW) before the Flatten, and the device must run it.

Usage: make_flatten_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.RandomState(7)
out = sys.argv[1]
w = numpy_helper.from_array(rng.randn(3, 2, 3, 3).astype(np.float32), "conv.w")
b = numpy_helper.from_array(rng.randn(3).astype(np.float32), "conv.b")
fw = numpy_helper.from_array(rng.randn(5, 48).astype(np.float32), "fc.w")
fb = numpy_helper.from_array(rng.randn(5).astype(np.float32), "fc.b")
nodes = [
    helper.make_node("Conv", ["x", "conv.w", "conv.b"], ["c"], name="conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"], name="relu"),
    helper.make_node("Flatten", ["r"], ["f"], name="flatten", axis=1),
    helper.make_node("Gemm", ["f", "fc.w", "fc.b"], ["y"], name="fc", transB=1),
]
graph = helper.make_graph(nodes, "flatten_after_conv",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])], [w, b, fw, fb])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tx8-aot tests")
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
x = numpy_helper.from_array(rng.randn(1, 2, 4, 4).astype(np.float32), "x")
with open(os.path.join(out, "test_data_set_0", "input_0.pb"), "wb") as f:
    f.write(x.SerializeToString())
