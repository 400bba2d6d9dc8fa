#!/usr/bin/python3
"""Writes the simplest real pattern that needs broadcasting: Conv without bias, then Add of a per-channel bias
[C, 1, 1], Relu, then Mul by a [1, C, 1, 1] scale and Sub of a [W] row (numpy broadcasting of each binary op).

Usage: make_conv_bias_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.RandomState(17)
out = sys.argv[1]
inits = [
    numpy_helper.from_array(rng.randn(6, 3, 3, 3).astype(np.float32), "w"),
    numpy_helper.from_array(rng.randn(6, 1, 1).astype(np.float32), "bias"),
    numpy_helper.from_array(rng.uniform(0.5, 2, (1, 6, 1, 1)).astype(np.float32), "scale"),
    numpy_helper.from_array(rng.randn(10).astype(np.float32), "row"),
]
nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
    helper.make_node("Add", ["c", "bias"], ["cb"], name="bias_add"),
    helper.make_node("Relu", ["cb"], ["r"], name="relu"),
    helper.make_node("Mul", ["r", "scale"], ["s"], name="scale_mul"),
    helper.make_node("Sub", ["s", "row"], ["y"], name="row_sub"),
]
graph = helper.make_graph(nodes, "conv_bias", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 10])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6, 8, 10])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tx8-aot tests")
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "test_data_set_0", "x.npy"), rng.randn(1, 3, 8, 10).astype(np.float32))
