#!/usr/bin/python3
"""Writes reductions as models use them: ReduceMean over H, W (global average pooling), ReduceMax over the last axis
without keepdims, ReduceMin over the channels, each on a [1, 8, 16, 64] input (32 KiB, so a 16 KiB SPM slices
them).

Usage: make_reduce_model.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

rng = np.random.RandomState(23)
out = sys.argv[1]
shape = [1, 8, 16, 64]
nodes = [
    helper.make_node("ReduceMean", ["x"], ["gap"], name="gap", axes=[2, 3], keepdims=1),
    helper.make_node("ReduceMax", ["x"], ["rowmax"], name="rowmax", axes=[3], keepdims=0),
    helper.make_node("ReduceMin", ["x"], ["chanmin"], name="chanmin", axes=[1], keepdims=1),
]
graph = helper.make_graph(nodes, "reductions", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("gap", TensorProto.FLOAT, [1, 8, 1, 1]),
                           helper.make_tensor_value_info("rowmax", TensorProto.FLOAT, [1, 8, 16]),
                           helper.make_tensor_value_info("chanmin", TensorProto.FLOAT, [1, 1, 16, 64])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tx8-aot tests")
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "test_data_set_0", "x.npy"), rng.randn(*shape).astype(np.float32))
