#!/usr/bin/python3
"""Writes Concat as models use it: two feature maps [1, 4, 16, 64] and a computed one (Relu of the first) joined
along the channels, then along the last axis with a third input; 16 KiB per input, so a 16 KiB SPM slices them.
(A constant operand would be loaded whole: slicing constants is not supported yet.)

Usage: make_concat_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

rng = np.random.RandomState(29)
out = sys.argv[1]
shape = [1, 4, 16, 64]
nodes = [
    helper.make_node("Relu", ["a"], ["r"], name="relu"),
    helper.make_node("Concat", ["a", "b", "r"], ["c"], name="channels", axis=1),
    helper.make_node("Concat", ["c", "tail"], ["y"], name="columns", axis=-1),
]
graph = helper.make_graph(nodes, "concat",
                          [helper.make_tensor_value_info("a", TensorProto.FLOAT, shape),
                           helper.make_tensor_value_info("b", TensorProto.FLOAT, shape),
                           helper.make_tensor_value_info("tail", TensorProto.FLOAT, [1, 12, 16, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 12, 16, 72])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tx8-aot tests")
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
for name in "ab":
    np.save(os.path.join(out, "test_data_set_0", name + ".npy"), rng.randn(*shape).astype(np.float32))
np.save(os.path.join(out, "test_data_set_0", "tail.npy"), rng.randn(1, 12, 16, 8).astype(np.float32))
