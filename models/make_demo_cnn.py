#!/usr/bin/python3
"""Writes the demo CNN (models/demo_cnn/model.onnx) and one input (test_data_set_0/input_0.pb).

A small but real image classifier on a 1x3x32x32 input: a conv-bn-relu stem, a residual block
(conv-bn-relu, conv-bn, add, relu), max pooling, a strided conv-bn-relu, global average pooling, a linear
layer and softmax over 10 classes. Weights and the input come from a fixed seed, so the file is the same on
every run (numpy's RandomState stream is stable across numpy versions).

Usage: make_demo_cnn.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.RandomState(20261121)
nodes, inits = [], []


def const(name, array):
    inits.append(numpy_helper.from_array(np.ascontiguousarray(array, dtype=np.float32), name))
    return name


def conv_bn(x, name, cin, cout, stride=1, relu=True):
    """conv3x3 (pad 1) -> BatchNormalization (-> Relu); He-scaled weights, non-trivial BN statistics."""
    w = rng.randn(cout, cin, 3, 3) * np.sqrt(2.0 / (cin * 9))
    nodes.append(helper.make_node("Conv", [x, const(name + ".w", w), const(name + ".b", rng.randn(cout) * 0.1)],
                                  [name + ".conv"], name=name + ".conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                  strides=[stride, stride]))
    nodes.append(helper.make_node(
        "BatchNormalization",
        [name + ".conv", const(name + ".gamma", 1.0 + 0.1 * rng.randn(cout)),
         const(name + ".beta", 0.1 * rng.randn(cout)), const(name + ".mean", 0.1 * rng.randn(cout)),
         const(name + ".var", 1.0 + 0.2 * rng.rand(cout))],
        [name + ".bn"], name=name + ".bn", epsilon=1e-5))
    if not relu:
        return name + ".bn"
    nodes.append(helper.make_node("Relu", [name + ".bn"], [name + ".relu"], name=name + ".relu"))
    return name + ".relu"


def build():
    x = conv_bn("input", "stem", 3, 16)
    y = conv_bn(x, "block1a", 16, 16)
    y = conv_bn(y, "block1b", 16, 16, relu=False)
    nodes.append(helper.make_node("Add", [x, y], ["block1.add"], name="block1.add"))
    nodes.append(helper.make_node("Relu", ["block1.add"], ["block1.relu"], name="block1.relu"))
    nodes.append(helper.make_node("MaxPool", ["block1.relu"], ["pool"], name="pool", kernel_shape=[2, 2],
                                  strides=[2, 2]))
    z = conv_bn("pool", "down", 16, 32, stride=2)
    nodes.append(helper.make_node("GlobalAveragePool", [z], ["gap"], name="gap"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="flat", axis=1))
    nodes.append(helper.make_node("Gemm", ["flat", const("fc.w", rng.randn(10, 32) * np.sqrt(1.0 / 32)),
                                           const("fc.b", 0.1 * rng.randn(10))],
                                  ["logits"], name="fc", transB=1))
    nodes.append(helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=1))
    graph = helper.make_graph(
        nodes, "demo_cnn",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])], inits)
    model = helper.make_model(graph, producer_name="tx8-aot models/make_demo_cnn.py",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "demo_cnn")
    model = build()
    image = rng.rand(1, 3, 32, 32).astype(np.float32)
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    with open(os.path.join(out, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    with open(os.path.join(out, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(image, "input").SerializeToString())
    print("wrote %s (%d nodes, %d weights)" % (os.path.join(out, "model.onnx"), len(model.graph.node),
                                               sum(int(np.prod(i.dims)) for i in model.graph.initializer)))


if __name__ == "__main__":
    main()
