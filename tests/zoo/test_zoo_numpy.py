#!/usr/bin/python3
"""Checks models/zoo_numpy.py (the float64 interpreter behind the model zoo's expected outputs) against hand
computations and against naive loop implementations written from the ONNX operator documents, and checks
models/make_zoo.py's promises (same bytes every run, variants of one model compute the same function, the MAC
count). Exits non-zero on the first wrong answer.

Usage: test_zoo_numpy.py
"""
import math
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "models"))
import make_zoo  # noqa: E402
import zoo_numpy  # noqa: E402

checks = 0


def node(op, n_in=1, **attrs):
    return helper.make_node(op, ["i%d" % k for k in range(n_in)], ["o"], name=op, **attrs)


def run1(op, ins, opset=13, **attrs):
    return zoo_numpy.run_node(node(op, len(ins), **attrs), [np.asarray(v) for v in ins], opset)[0]


def close(got, want, what, tol=1e-12):
    global checks
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape or not np.allclose(got, want, rtol=tol, atol=tol):
        print("FAIL %s:\n got  %s\n want %s" % (what, got, want))
        sys.exit(1)
    checks += 1


def naive_conv(x, w, b, stride, pad, dil, group):
    """Direct 7-loop convolution, from the ONNX Conv definition."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    oh = (h + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // group
    for b_ in range(n):
        for o in range(m):
            gi = o // mg
            for i in range(oh):
                for j in range(ow):
                    s = b[o] if b is not None else 0.0
                    for ci in range(cg):
                        for u in range(kh):
                            for v in range(kw):
                                hh = i * stride[0] - pad[0] + u * dil[0]
                                ww = j * stride[1] - pad[1] + v * dil[1]
                                if 0 <= hh < h and 0 <= ww < wd:
                                    s += x[b_, gi * cg + ci, hh, ww] * w[o, ci, u, v]
                    y[b_, o, i, j] = s
    return y


def test_conv():
    # by hand: a 3x3 image, a 2x2 kernel of ones, a bias of 10
    x = np.arange(9.0).reshape(1, 1, 3, 3)
    y = run1("Conv", [x, np.ones((1, 1, 2, 2)), np.array([10.0])], kernel_shape=[2, 2])
    close(y, [[[[0 + 1 + 3 + 4 + 10, 1 + 2 + 4 + 5 + 10], [3 + 4 + 6 + 7 + 10, 4 + 5 + 7 + 8 + 10]]]], "conv by hand")
    # padded, strided: the corner output sees x[0,0] and x[0,1], x[1,0], x[1,1] with pads 1
    y = run1("Conv", [x, np.ones((1, 1, 3, 3))], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])
    close(y, [[[[0 + 1 + 3 + 4, 1 + 2 + 4 + 5], [3 + 4 + 6 + 7, 4 + 5 + 7 + 8]]]], "conv pads+strides by hand")
    rng = np.random.default_rng(1)
    for (c, m, g, k, s, p, d) in ((4, 6, 2, 3, 1, (1, 1, 1, 1), (1, 1)), (6, 6, 6, 3, 2, (1, 0, 1, 2), (1, 1)),
                                  (3, 4, 1, 3, 2, (2, 2, 2, 2), (2, 2)), (6, 9, 3, 1, 1, (0, 0, 0, 0), (1, 1)),
                                  (2, 2, 1, 5, 3, (2, 1, 0, 2), (1, 2))):
        x = rng.standard_normal((2, c, 9, 8))
        w = rng.standard_normal((m, c // g, k, k))
        b = rng.standard_normal(m)
        got = run1("Conv", [x, w, b], group=g, kernel_shape=[k, k], strides=[s, s], pads=list(p), dilations=list(d))
        close(got, naive_conv(x, w, b, (s, s), p, d, g), "conv c%d m%d g%d k%d s%d p%s d%s" % (c, m, g, k, s, p, d))


def test_pools():
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    close(run1("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), [[[[10, 11], [14, 15]]]],
          "maxpool ceil_mode by hand")
    close(run1("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2]), [[[[10]]]], "maxpool floor by hand")
    # ceil_mode never starts a window in the end padding: 5 wide, pads 1, kernel 2, stride 2 -> 3 windows, not 4
    close(run1("MaxPool", [np.arange(1.0, 6.0).reshape(1, 1, 1, 5)], kernel_shape=[1, 2], strides=[1, 2],
               pads=[0, 1, 0, 1], ceil_mode=1), [[[[1, 3, 5]]]], "maxpool ceil_mode window start rule")
    close(run1("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1]),
          [[[[0, 2, 3], [8, 10, 11], [12, 14, 15]]]], "maxpool pads by hand")
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    close(run1("AveragePool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
          np.full((1, 1, 2, 2), 10.0 / 9), "avgpool count_include_pad=1 by hand")
    close(run1("AveragePool", [x], kernel_shape=[3, 3], pads=[1, 1, 1, 1]), np.full((1, 1, 2, 2), 10.0 / 4),
          "avgpool count_include_pad=0 by hand")
    # ceil_mode extension never counts: a 3-wide row, kernel 2 stride 2 -> windows [0,1] and [2]
    x = np.array([[[[2.0, 4.0, 9.0]]]])
    close(run1("AveragePool", [x], kernel_shape=[1, 2], strides=[1, 2], ceil_mode=1, count_include_pad=1),
          [[[[3.0, 9.0]]]], "avgpool ceil_mode by hand")
    x = np.arange(8.0).reshape(1, 2, 2, 2)
    close(run1("GlobalAveragePool", [x]), [[[[1.5]], [[5.5]]]], "global average pool by hand")


def test_normalizations():
    x = np.array([1.0, 2.0, 3.0]).reshape(1, 3, 1, 1)
    # (attributes are float32: values exact in binary)
    y = run1("LRN", [x], size=3, alpha=0.375, beta=0.5, bias=2.0)
    close(y.reshape(3), [1 / math.sqrt(2 + 0.125 * 5), 2 / math.sqrt(2 + 0.125 * 14), 3 / math.sqrt(2 + 0.125 * 13)],
          "LRN size 3 by hand")
    # even size: ONNX's window is [c - floor((size-1)/2), c + ceil((size-1)/2)] = [c, c+1] for size 2
    y = run1("LRN", [x], size=2, alpha=0.25, beta=1.0, bias=1.0)
    close(y.reshape(3), [1 / (1 + 0.125 * 5), 2 / (1 + 0.125 * 13), 3 / (1 + 0.125 * 9)], "LRN size 2 by hand")
    x = np.array([1.0, 5.0]).reshape(1, 2, 1, 1)
    y = run1("BatchNormalization", [x, np.array([2.0, 3.0]), np.array([0.5, -1.0]), np.array([1.0, 1.0]),
                                    np.array([4.0, 16.0])], epsilon=0.0)
    close(y.reshape(2), [2.0 * 0 / 2 + 0.5, 3.0 * 4 / 4 - 1.0], "batchnorm by hand")
    x = np.array([[1.0, 2.0, 3.0]])
    s = math.sqrt(1.5)
    close(run1("LayerNormalization", [x, np.ones(3), np.zeros(3)], 17, epsilon=0.0), [[-s, 0, s]],
          "layernorm by hand")
    close(run1("Softmax", [np.array([[0.0, math.log(3.0)]])]), [[0.25, 0.75]], "softmax by hand")
    close(run1("ReduceMean", [np.arange(6.0).reshape(2, 3)], axes=[-1], keepdims=1), [[1.0], [4.0]],
          "reducemean by hand")


def test_elementwise_and_linear():
    close(run1("Erf", [np.array([0.5, -1.0])]), [0.5204998778130465, -0.8427007929497149], "erf")
    close(run1("Clip", [np.array([-1.0, 3.0, 7.0]), np.array(0.0), np.array(6.0)]), [0, 3, 6], "clip inputs")
    close(run1("Clip", [np.array([-1.0, 3.0, 7.0])], 6, min=0.0, max=6.0), [0, 3, 6], "clip attributes")
    close(run1("Sigmoid", [np.array([0.0])]), [0.5], "sigmoid")
    close(run1("Pow", [np.array([3.0]), np.array(2.0)]), [9.0], "pow")
    a, b, c = np.array([[1.0, 2.0]]), np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 3.0]]), np.array([1.0, 2.0, 3.0])
    close(run1("Gemm", [a, b, c], transB=1, alpha=2.0, beta=0.5), [[2 * 1 + 0.5, 2 * 4 + 1.0, 2 * 6 + 1.5]],
          "gemm transB alpha beta by hand")
    a = np.arange(12.0).reshape(2, 1, 2, 3)
    b = np.arange(6.0).reshape(3, 2)
    # a[1, 0, 1] = [9, 10, 11], b = [[0, 1], [2, 3], [4, 5]]
    close(run1("MatMul", [a, b])[1, 0, 1], [9 * 0 + 10 * 2 + 11 * 4, 9 * 1 + 10 * 3 + 11 * 5], "batched matmul")


def test_shapes():
    x = np.arange(24.0).reshape(2, 3, 4)
    close(run1("Reshape", [x, np.array([0, -1], np.int64)]), x.reshape(2, 12), "reshape 0 / -1")
    close(run1("Flatten", [x], axis=2), x.reshape(6, 4), "flatten axis 2")
    close(run1("Transpose", [x], perm=[2, 0, 1])[3, 1, 2], x[1, 2, 3], "transpose")
    close(run1("Gather", [x, np.array(1, np.int64)], axis=1), x[:, 1, :], "gather scalar index")
    close(run1("Gather", [np.arange(10.0).reshape(5, 2), np.array([[4, 0]], np.int64)]), [[[8, 9], [0, 1]]],
          "gather embedding rows")
    close(run1("Concat", [np.zeros((1, 1)), np.ones((1, 2))], axis=1), [[0, 1, 1]], "concat")
    cos = helper.make_node("ConstantOfShape", ["s"], ["o"], value=numpy_helper.from_array(np.array([0.25],
                                                                                              np.float32)))
    close(zoo_numpy.run_node(cos, [np.array([2, 3], np.int64)], 13)[0], np.full((2, 3), 0.25), "constantofshape")
    close(run1("Shape", [x]), [2, 3, 4], "shape")
    close(run1("Unsqueeze", [np.array(7, np.int64), np.array([0], np.int64)]), [7], "unsqueeze (axes input)")
    close(run1("Squeeze", [np.zeros((1, 3, 1)), np.array([2], np.int64)]).shape, (1, 3), "squeeze")
    # DepthToSpace from the definitions: DCR y[c, h*b+i, w*b+j] = x[(i*b+j)*C'+c, h, w], CRD = x[c*b*b+i*b+j, h, w]
    x = np.random.default_rng(2).standard_normal((1, 18, 2, 3))
    for mode in ("DCR", "CRD"):
        y = run1("DepthToSpace", [x], blocksize=3, mode=mode)
        want = np.zeros((1, 2, 6, 9))
        for c in range(2):
            for h in range(2):
                for w in range(3):
                    for i in range(3):
                        for j in range(3):
                            src = (i * 3 + j) * 2 + c if mode == "DCR" else c * 9 + i * 3 + j
                            want[0, c, h * 3 + i, w * 3 + j] = x[0, src, h, w]
        close(y, want, "depth_to_space " + mode)


def test_lenet_by_hand():
    """lenet5 through the interpreter against a direct numpy forward of the same initializers."""
    model, inputs = make_zoo.build("lenet5", True)
    w = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer}
    x = inputs[0][1].astype(np.float64)
    x = naive_conv(x, w["conv1.weight"], None, (1, 1), (2, 2, 2, 2), (1, 1), 1) + w["conv1.bias"]
    x = np.maximum(x, 0).reshape(1, 6, 14, 2, 14, 2).max(axis=(3, 5))
    x = naive_conv(x, w["conv2.weight"], None, (1, 1), (0, 0, 0, 0), (1, 1), 1) + w["conv2.bias"]
    x = np.maximum(x, 0).reshape(1, 16, 5, 2, 5, 2).max(axis=(3, 5)).reshape(1, 400)
    x = np.maximum(x @ w["fc1.weight"] + w["fc1.bias"], 0)
    x = np.maximum(x @ w["fc2.weight"] + w["fc2.bias"], 0)
    x = x @ w["fc3.weight"] + w["fc3.bias"]
    close(zoo_numpy.run(model, dict(inputs))[0], x, "lenet5 forward", 1e-10)
    # MACs by hand: 6*28*28*25 + 16*10*10*150 + 400*120 + 120*84 + 84*10
    close(zoo_numpy.stats(model)[1], 6 * 28 * 28 * 25 + 16 * 10 * 10 * 150 + 400 * 120 + 120 * 84 + 84 * 10,
          "lenet5 MACs")


def test_variants_agree():
    """Variants of one model compute the same function (same weights, same input)."""
    for a, b in (("lenet5", "lenet5-symbatch"), ("lenet5", "lenet5-cos"), ("espcn", "espcn-rtr"),
                 ("bert2", "bert2-op13"), ("squeezenet1_1", "squeezenet1_1-cos")):
        ma, ia = make_zoo.build(a, True)
        mb, ib = make_zoo.build(b, True)
        for k, ((na, va), (nb, vb)) in enumerate(zip(ia, ib)):
            close(va, vb, "%s / %s input %d" % (a, b, k), 0)
        # ConstantOfShape(0.01) + (b - 0.01) rounds the float32 bias once more: close, not equal
        tol = 1e-6 if b.endswith("-cos") else 1e-10
        for k, (ya, yb) in enumerate(zip(zoo_numpy.run(ma, dict(ia)), zoo_numpy.run(mb, dict(ib)))):
            close(ya, yb, "%s / %s output %d" % (a, b, k), tol)


def test_deterministic():
    with tempfile.TemporaryDirectory() as d:
        blobs = []
        for k in range(2):
            make_zoo.write(os.path.join(d, str(k)), "squeezenet1_1-cos", True)
            base = os.path.join(d, str(k), "squeezenet1_1-cos")
            blobs.append([open(os.path.join(base, f), "rb").read() for f in
                          ("model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/output_0.pb")])
        close(float(blobs[0] == blobs[1]), 1.0, "two runs write the same bytes")
        onnx.checker.check_model(onnx.load(os.path.join(d, "0", "squeezenet1_1-cos", "model.onnx")))


if __name__ == "__main__":
    for fn in (test_conv, test_pools, test_normalizations, test_elementwise_and_linear, test_shapes,
               test_lenet_by_hand, test_variants_agree, test_deterministic):
        fn()
    print("test_zoo_numpy: %d checks passed" % checks)
