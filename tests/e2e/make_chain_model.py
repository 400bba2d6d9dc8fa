#!/usr/bin/python3
"""Writes a chain of N elementwise nodes (Add, Mul by constants, Relu, in turn) on a [1, 4, 8, 8] input,
plus one input: a model of about N groups, for the bundle's split of the group functions over C sources.

Usage: make_chain_model.py OUT_DIR N
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out, n = sys.argv[1], int(sys.argv[2])
rng = np.random.RandomState(11)
shape = [1, 4, 8, 8]
nodes, inits = [], []
prev = "x"
for i in range(n):
    y = "y" if i == n - 1 else "t%d" % i
    kind = i % 3
    if kind == 2:
        nodes.append(helper.make_node("Relu", [prev], [y], name="relu%d" % i))
    else:
        c = "c%d" % i
        # Full-shape constants: the device's Add and Mul do not broadcast.
        low, high = (0.9, 1.1) if kind == 1 else (-0.05, 0.05)
        inits.append(numpy_helper.from_array(rng.uniform(low, high, shape).astype(np.float32), c))
        nodes.append(helper.make_node("Mul" if kind == 1 else "Add", [prev, c], [y], name="n%d" % i))
    prev = y
graph = helper.make_graph(nodes, "chain%d" % n, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tx8-aot tests")
os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
onnx.save(model, os.path.join(out, "model.onnx"))
x = rng.uniform(-1, 1, shape).astype(np.float32)
np.save(os.path.join(out, "test_data_set_0", "x.npy"), x)
