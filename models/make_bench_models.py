#!/usr/bin/python3
"""The planner's benchmark models (issue 17), as ONNX backend test directories (model.onnx and
test_data_set_0/input_<k>.pb, output_<k>.pb from numpy in float64), seeded: the same bytes every run.

  make_bench_models.py OUT matmul M K N        OUT/model.onnx: Y = A x B, A an input [M, K], B a constant [K, N]
  make_bench_models.py OUT matmul-bf16 M K N   the same in bfloat16: A, B and Y bf16 (Y expected from float64,
                                              rounded to bf16)
  make_bench_models.py OUT conv N C H W O KH KW STRIDE PAD
                                              one Conv (with bias) of ResNet-50's shapes
  make_bench_models.py OUT chain ELEMENTS OPS  OPS elementwise ops (Mul / Add by a [1, 1] constant, Relu, Neg,
                                              Abs) on a [1, ELEMENTS] float32 input
  --no-expected                               write no output_<k>.pb (the compare is then skipped by the caller)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(out, graph, inputs, outputs):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))
    for k, (name, value) in enumerate(inputs):
        with open(os.path.join(out, "test_data_set_0", "input_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
    for k, (name, value) in enumerate(outputs or []):
        with open(os.path.join(out, "test_data_set_0", "output_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())


def matmul(out, m, k, n, expected):
    rng = np.random.RandomState(17)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"], name="matmul")], "matmul_%dx%dx%d" % (m, k, n),
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])], [numpy_helper.from_array(b, "b")])
    y = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32) if expected else None
    save(out, graph, [("a", a)], [("y", y)] if expected else None)


def to_bf16(x):
    """float32 array -> its bfloat16 bits (uint16), rounded to nearest even."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def bf16_tensor(name, bits):
    return helper.make_tensor(name, TensorProto.BFLOAT16, bits.shape, bits.tobytes(), raw=True)


def matmul_bf16(out, m, k, n, expected):
    rng = np.random.RandomState(17)
    a = to_bf16(rng.uniform(-1, 1, (m, k)).astype(np.float32))
    b = to_bf16(rng.uniform(-1, 1, (k, n)).astype(np.float32))
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"], name="matmul")], "matmul_bf16_%dx%dx%d" % (m, k, n),
        [helper.make_tensor_value_info("a", TensorProto.BFLOAT16, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [m, n])], [bf16_tensor("b", b)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(out, "model.onnx"))
    with open(os.path.join(out, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(bf16_tensor("a", a).SerializeToString())
    if expected:
        y = from_bf16(a).astype(np.float64) @ from_bf16(b).astype(np.float64)
        with open(os.path.join(out, "test_data_set_0", "output_0.pb"), "wb") as f:
            f.write(bf16_tensor("y", to_bf16(y.astype(np.float32))).SerializeToString())


def conv(out, n, c, h, w, o, kh, kw, stride, pad, expected):
    rng = np.random.RandomState(19)
    x = rng.uniform(-1, 1, (n, c, h, w)).astype(np.float32)
    wt = (rng.uniform(-1, 1, (o, c, kh, kw)) / np.sqrt(c * kh * kw)).astype(np.float32)
    bias = rng.uniform(-0.1, 0.1, (o,)).astype(np.float32)
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[kh, kw],
                            strides=[stride, stride], pads=[pad, pad, pad, pad])
    graph = helper.make_graph([node], "conv_%dx%dx%dx%d_o%d_k%d_s%d" % (n, c, h, w, o, kh, stride),
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, o, oh, ow])],
                              [numpy_helper.from_array(wt, "w"), numpy_helper.from_array(bias, "b")])
    outputs = None
    if expected:
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        cols = np.empty((n, c, kh, kw, oh, ow))
        for i in range(kh):
            for j in range(kw):
                cols[:, :, i, j] = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
        y = np.einsum("ncklhw,ockl->nohw", cols, wt.astype(np.float64))
        y = y + bias.astype(np.float64)[None, :, None, None]
        outputs = [("y", y.astype(np.float32))]
    save(out, graph, [("x", x)], outputs)


CHAIN = ["Mul", "Add", "Relu", "Mul", "Add", "Neg", "Add", "Abs"]


def chain(out, elements, ops, expected):
    """OPS elementwise nodes on [1, ELEMENTS]: Mul / Add by a [1, 1] constant (broadcast), Relu, Neg, Abs."""
    rng = np.random.RandomState(23)
    x = rng.uniform(-1, 1, (1, elements)).astype(np.float32)
    nodes, inits, prev, y = [], [], "x", x.astype(np.float64)
    for i in range(ops):
        kind = CHAIN[i % len(CHAIN)]
        name = "y" if i == ops - 1 else "t%d" % i
        if kind in ("Mul", "Add"):
            c = np.array([[0.75 if kind == "Mul" else 0.125]], dtype=np.float32)
            inits.append(numpy_helper.from_array(c, "c%d" % i))
            nodes.append(helper.make_node(kind, [prev, "c%d" % i], [name], name="n%d" % i))
            y = y * 0.75 if kind == "Mul" else y + 0.125
        else:
            nodes.append(helper.make_node(kind, [prev], [name], name="n%d" % i))
            y = {"Relu": np.maximum(y, 0), "Neg": -y, "Abs": np.abs(y)}[kind]
        prev = name
    graph = helper.make_graph(nodes, "chain_%d_x%d" % (elements, ops),
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, elements])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, elements])], inits)
    save(out, graph, [("x", x)], [("y", y.astype(np.float32))] if expected else None)


def main(argv):
    expected = "--no-expected" not in argv
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    out, kind, nums = args[0], args[1], [int(v) for v in args[2:]]
    if kind == "matmul" and len(nums) == 3:
        matmul(out, *nums, expected)
    elif kind == "matmul-bf16" and len(nums) == 3:
        matmul_bf16(out, *nums, expected)
    elif kind == "conv" and len(nums) == 9:
        conv(out, *nums, expected)
    elif kind == "chain" and len(nums) == 2:
        chain(out, *nums, expected)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
