#!/usr/bin/python3
"""The model zoo: published architectures with their real layer shapes and seeded random weights, written as ONNX
backend test directories (OUT/<name>/model.onnx, OUT/<name>/test_data_set_0/input_<k>.pb and, from the float64
forward in models/zoo_numpy.py, the expected output_<k>.pb).

Usage: make_zoo.py OUT [--models NAME,...] [--size full|small] [--list] [--info] [--no-expected]

  --models   variant names or shell patterns ('resnet50*'); default: every variant
  --size     full: the published input resolution (224x224, BERT's 128 tokens and 30522-word vocabulary);
             small: a reduced resolution with the same layers and channel counts (for ctest)
  --list     print the variant names (after --models) and write nothing
  --info     print name, input shape, parameters, MACs and nodes of each selected variant (builds them in memory)
  --no-expected   skip the float64 forward (no output_<k>.pb)
Prints the names it wrote, one per line.

Every model is written "the way common exporters write them": PyTorch-style node attributes, Gemm with transB for
linear layers of CNNs, MatMul + Add in the transformer, scalars as Constant nodes. Variants of one model share its
weights and input (the random streams are seeded from the model's name and drawn in the same order), so e.g.
bert2 and bert2-op13 compute the same function:
  -op13 / -op17   the other opset (bert2-op13 writes LayerNormalization as ReduceMean/Sub/Pow/Sqrt/Div)
  -ir9            IR version 9 (newer than ONNX 1.12's checker accepts; the checker is not run on them)
  -symbatch       the batch extent of the inputs and outputs is the symbol 'batch_size'
  -cos            every bias is ConstantOfShape(shape, value=0.01) + (bias - 0.01)
  espcn-rtr       the pixel shuffle as Reshape-Transpose-Reshape instead of DepthToSpace

Deterministic: the same bytes on every run (numpy's default_rng streams are stable; BLAS runs on one thread).
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import fnmatch  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import zlib  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zoo_numpy  # noqa: E402

ELEMENT = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}


class Graph:
    """A graph under construction that tracks every value's shape (batch 1)."""

    def __init__(self, model, opset, cos=False, symbatch=False):
        self.rng = np.random.default_rng(zlib.crc32(model.encode()))
        self.opset, self.cos, self.symbatch = opset, cos, symbatch
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.shape, self.used = {}, set()
        self.feeds = {}
        self.input_rng = np.random.default_rng(zlib.crc32((model + ".input").encode()))

    def uniq(self, name):
        base, k = name, 1
        while name in self.used:
            name = "%s_%d" % (base, k)
            k += 1
        self.used.add(name)
        return name

    # ---- values
    def param(self, name, array, dtype=np.float32):
        name = self.uniq(name)
        array = np.ascontiguousarray(array, dtype=dtype)
        self.inits.append(numpy_helper.from_array(array, name))
        self.shape[name] = list(array.shape)
        return name

    def const(self, name, array, dtype=np.float32):
        """A Constant node (PyTorch writes scalars and shapes this way)."""
        array = np.asarray(array, dtype=dtype)
        return self.node("Constant", [], list(array.shape), name, value=numpy_helper.from_array(array, name))

    def node(self, op, inputs, shape, name, **attrs):
        name = self.uniq(name)
        self.nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        self.shape[name] = list(shape)
        return name

    def input(self, name, shape, kind="normal", high=None):
        if kind == "ids":
            value = self.input_rng.integers(0, high, size=shape, dtype=np.int64)
        else:
            value = self.input_rng.standard_normal(shape).astype(np.float32)
        self.inputs.append((name, value))
        self.feeds[name] = value
        self.shape[name] = list(shape)
        self.used.add(name)
        return name

    def output(self, x):
        self.outputs.append(x)
        return x

    # ---- random weights
    def normal(self, shape, std):
        return self.rng.standard_normal(shape) * std

    def bias(self, name, n, shape=None):
        b = (0.05 * self.rng.standard_normal(n)).astype(np.float32).reshape(shape or [n])
        if not self.cos:
            return self.param(name, b)
        # the exporter's torch.full(...) + parameter: ConstantOfShape(shape) with a value, then an Add
        shp = self.const(name + ".shape", list(b.shape), np.int64)
        fill = self.node("ConstantOfShape", [shp], list(b.shape), name + ".fill",
                         value=numpy_helper.from_array(np.array([0.01], np.float32)))
        return self.node("Add", [fill, self.param(name + ".delta", b - np.float32(0.01))], list(b.shape), name)

    # ---- layers
    def conv(self, x, cout, k, s=1, p=0, g=1, bias=True, name="conv", gain=2.0):
        """Conv with He-scaled weights (gain 2 before a ReLU, 1 before a linear/tanh use). bias: True (the Conv's
        third input), False, or "add" (no Conv bias; a separate broadcasting Add of a [C,1,1] constant)."""
        n, cin, h, w = self.shape[x]
        fan_in = cin // g * k * k
        weight = self.param(name + ".weight", self.normal((cout, cin // g, k, k), math.sqrt(gain / fan_in)))
        inputs = [x, weight]
        if bias is True:
            inputs.append(self.bias(name + ".bias", cout))
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        y = self.node("Conv", inputs, [n, cout, oh, ow], name, dilations=[1, 1], group=g, kernel_shape=[k, k],
                      pads=[p, p, p, p], strides=[s, s])
        if bias == "add":
            y = self.add(y, self.bias(name + ".bias", cout, [cout, 1, 1]), name + ".add")
        return y

    def bn(self, x, name, gamma=1.0):
        """BatchNormalization with running statistics near the identity's; gamma scales the random scales (a
        residual branch's last BN uses < 1, so that the sums of 16 residual blocks stay O(1))."""
        c = self.shape[x][1]
        gamma = self.param(name + ".weight", gamma * (1.0 + 0.1 * self.rng.standard_normal(c)))
        beta = self.param(name + ".bias", 0.1 * self.rng.standard_normal(c))
        mean = self.param(name + ".running_mean", 0.1 * self.rng.standard_normal(c))
        var = self.param(name + ".running_var", 1.0 + 0.2 * self.rng.random(c))
        return self.node("BatchNormalization", [x, gamma, beta, mean, var], self.shape[x], name, epsilon=1e-5,
                         momentum=0.9)

    def act(self, op, x, name):
        return self.node(op, [x], self.shape[x], name)

    def relu(self, x, name):
        return self.act("Relu", x, name)

    def clip6(self, x, name):
        if not hasattr(self, "_clip"):
            self._clip = (self.param("clip.min", np.float32(0.0)), self.param("clip.max", np.float32(6.0)))
        return self.node("Clip", [x, *self._clip], self.shape[x], name)

    def conv_bn_relu(self, x, cout, k, s=1, p=0, g=1, name="conv", relu=True, gamma=1.0):
        y = self.bn(self.conv(x, cout, k, s, p, g, bias=False, name=name + ".conv"), name + ".bn", gamma)
        return self.relu(y, name + ".relu") if relu else y

    def pool(self, op, x, k, s, p=0, ceil=False, name="pool", count_include_pad=None):
        n, c, h, w = self.shape[x]
        out, _ = zoo_numpy._pool_geometry([h, w], [k, k], [s, s], [p] * 4, [1, 1], ceil)
        attrs = dict(kernel_shape=[k, k], pads=[p] * 4, strides=[s, s])
        if ceil:
            attrs["ceil_mode"] = 1
        if count_include_pad is not None:
            attrs["count_include_pad"] = count_include_pad
        return self.node(op, [x], [n, c] + out, name, **attrs)

    def maxpool(self, x, k, s, p=0, ceil=False, name="maxpool"):
        return self.pool("MaxPool", x, k, s, p, ceil, name)

    def avgpool(self, x, k, s, p=0, ceil=False, name="avgpool", count_include_pad=None):
        return self.pool("AveragePool", x, k, s, p, ceil, name, count_include_pad)

    def gap(self, x, name="gap"):
        return self.node("GlobalAveragePool", [x], self.shape[x][:2] + [1, 1], name)

    def lrn(self, x, name, bias=1.0):
        return self.node("LRN", [x], self.shape[x], name, alpha=1e-4, beta=0.75, bias=bias, size=5)

    def concat(self, xs, name, axis=1):
        shape = list(self.shape[xs[0]])
        shape[axis] = sum(self.shape[v][axis] for v in xs)
        return self.node("Concat", xs, shape, name, axis=axis)

    def add(self, a, b, name):
        shape = list(np.broadcast_shapes(tuple(self.shape[a]), tuple(self.shape[b])))
        return self.node("Add", [a, b], shape, name)

    def binary(self, op, a, b, name):
        shape = list(np.broadcast_shapes(tuple(self.shape[a]), tuple(self.shape[b])))
        return self.node(op, [a, b], shape, name)

    def flatten(self, x, name="flatten"):
        s = self.shape[x]
        return self.node("Flatten", [x], [s[0], int(np.prod(s[1:]))], name, axis=1)

    def reshape(self, x, shape, name):
        """Reshape to a constant shape (entries 0 / -1 as ONNX's)."""
        src = self.shape[x]
        out = [src[i] if v == 0 else v for i, v in enumerate(shape)]
        if -1 in out:
            out[out.index(-1)] = int(np.prod(src)) // -int(np.prod(out))
        return self.node("Reshape", [x, self.param(name + ".shape", shape, np.int64)], out, name)

    def transpose(self, x, perm, name):
        return self.node("Transpose", [x], [self.shape[x][p] for p in perm], name, perm=perm)

    def linear(self, x, cout, name, gain=2.0):
        """A CNN classifier layer as PyTorch exports nn.Linear on a 2-D input: Gemm(x, W[out,in], b, transB=1)."""
        n, cin = self.shape[x]
        w = self.param(name + ".weight", self.normal((cout, cin), math.sqrt(gain / cin)))
        return self.node("Gemm", [x, w, self.bias(name + ".bias", cout)], [n, cout], name, alpha=1.0, beta=1.0,
                         transB=1)

    def matmul_add(self, x, cout, name, gain=1.0):
        """nn.Linear on a 3-D input: MatMul(x, W[in,out]) + b."""
        cin = self.shape[x][-1]
        w = self.param(name + ".weight", self.normal((cin, cout), math.sqrt(gain / cin)))
        y = self.node("MatMul", [x, w], self.shape[x][:-1] + [cout], name + ".matmul")
        return self.add(y, self.bias(name + ".bias", cout), name)

    def softmax(self, x, name="softmax", axis=-1):
        return self.node("Softmax", [x], self.shape[x], name, axis=axis)


# ------------------------------------------------------------------------------------------------ the models
RESIDUAL_GAMMA = 0.3  # the scale of a residual branch's last BN (see Graph.bn)

def lenet5(g, small):
    x = g.input("input", [1, 1, 28, 28])
    for i, c in enumerate((6, 16), 1):
        x = g.conv(x, c, 5, p=2 if i == 1 else 0, bias="add", name="conv%d" % i)
        x = g.relu(x, "relu%d" % i)
        x = g.maxpool(x, 2, 2, name="pool%d" % i)
    if g.symbatch:  # x.view(x.size(0), -1) as PyTorch writes it with a dynamic batch
        shp = g.node("Shape", [x], [4], "flatten.shape")
        n = g.node("Gather", [shp, g.const("flatten.zero", 0, np.int64)], [], "flatten.batch", axis=0)
        n = g.node("Unsqueeze", [n, g.const("flatten.axes", [0], np.int64)], [1], "flatten.unsqueeze")
        tail = g.const("flatten.minus_one", [-1], np.int64)
        shape = g.node("Concat", [n, tail], [2], "flatten.concat", axis=0)
        x = g.node("Reshape", [x, shape], [1, 400], "flatten")
    else:  # x.view(-1, 16 * 5 * 5)
        x = g.reshape(x, [-1, 400], "flatten")
    for i, c in enumerate((120, 84, 10), 1):
        w = g.param("fc%d.weight" % i, g.normal((g.shape[x][1], c), math.sqrt(2.0 / g.shape[x][1])))
        y = g.node("MatMul", [x, w], [1, c], "fc%d.matmul" % i)
        x = g.add(y, g.bias("fc%d.bias" % i, c), "fc%d" % i)
        if c != 10:
            x = g.relu(x, "relu%d" % (i + 2))
    return g.output(x)


def alexnet(g, small):
    """BVLC AlexNet (Caffe): LRN after conv1 and conv2, conv2/4/5 in two groups, fc6/fc7 4096."""
    r = 96 if small else 224
    x = g.input("data", [1, 3, r, r])
    x = g.relu(g.conv(x, 96, 11, s=4, p=2, name="conv1"), "relu1")
    x = g.maxpool(g.lrn(x, "norm1"), 3, 2, name="pool1")
    x = g.relu(g.conv(x, 256, 5, p=2, g=2, name="conv2"), "relu2")
    x = g.maxpool(g.lrn(x, "norm2"), 3, 2, name="pool2")
    x = g.relu(g.conv(x, 384, 3, p=1, name="conv3"), "relu3")
    x = g.relu(g.conv(x, 384, 3, p=1, g=2, name="conv4"), "relu4")
    x = g.relu(g.conv(x, 256, 3, p=1, g=2, name="conv5"), "relu5")
    x = g.flatten(g.maxpool(x, 3, 2, name="pool5"))
    x = g.relu(g.linear(x, 4096, "fc6"), "relu6")
    x = g.relu(g.linear(x, 4096, "fc7"), "relu7")
    return g.output(g.softmax(g.linear(x, 1000, "fc8", gain=1.0), "prob"))


def vgg16(g, small):
    r = 64 if small else 224
    x = g.input("input", [1, 3, r, r])
    cfg = [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]
    k = 0
    for v in cfg:
        if v == "M":
            x = g.maxpool(x, 2, 2, name="features.%d" % k)
        else:
            x = g.relu(g.conv(x, v, 3, p=1, name="features.%d" % k), "features.%d" % (k + 1))
            k += 1
        k += 1
    x = g.flatten(x)
    x = g.relu(g.linear(x, 4096, "classifier.0"), "classifier.1")
    x = g.relu(g.linear(x, 4096, "classifier.3"), "classifier.4")
    return g.output(g.softmax(g.linear(x, 1000, "classifier.6", gain=1.0)))


def googlenet(g, small):
    """Inception v1 (Szegedy et al. 2014, the Caffe BVLC layout): LRN in the stem, 5x5 branches, ceil-mode pools."""
    r = 96 if small else 224
    x = g.input("data", [1, 3, r, r])
    x = g.relu(g.conv(x, 64, 7, s=2, p=3, name="conv1"), "conv1.relu")
    x = g.lrn(g.maxpool(x, 3, 2, ceil=True, name="pool1"), "norm1")
    x = g.relu(g.conv(x, 64, 1, name="conv2_reduce"), "conv2_reduce.relu")
    x = g.relu(g.conv(x, 192, 3, p=1, name="conv2"), "conv2.relu")
    x = g.maxpool(g.lrn(x, "norm2"), 3, 2, ceil=True, name="pool2")

    def inception(x, name, c1, r3, c3, r5, c5, pp):
        b1 = g.relu(g.conv(x, c1, 1, name=name + ".1x1"), name + ".1x1.relu")
        b2 = g.relu(g.conv(x, r3, 1, name=name + ".3x3_reduce"), name + ".3x3_reduce.relu")
        b2 = g.relu(g.conv(b2, c3, 3, p=1, name=name + ".3x3"), name + ".3x3.relu")
        b3 = g.relu(g.conv(x, r5, 1, name=name + ".5x5_reduce"), name + ".5x5_reduce.relu")
        b3 = g.relu(g.conv(b3, c5, 5, p=2, name=name + ".5x5"), name + ".5x5.relu")
        b4 = g.maxpool(x, 3, 1, p=1, name=name + ".pool")
        b4 = g.relu(g.conv(b4, pp, 1, name=name + ".pool_proj"), name + ".pool_proj.relu")
        return g.concat([b1, b2, b3, b4], name + ".output")

    x = inception(x, "inception_3a", 64, 96, 128, 16, 32, 32)
    x = inception(x, "inception_3b", 128, 128, 192, 32, 96, 64)
    x = g.maxpool(x, 3, 2, ceil=True, name="pool3")
    for name, cfg in (("4a", (192, 96, 208, 16, 48, 64)), ("4b", (160, 112, 224, 24, 64, 64)),
                      ("4c", (128, 128, 256, 24, 64, 64)), ("4d", (112, 144, 288, 32, 64, 64)),
                      ("4e", (256, 160, 320, 32, 128, 128))):
        x = inception(x, "inception_" + name, *cfg)
    x = g.maxpool(x, 3, 2, ceil=True, name="pool4")
    x = inception(x, "inception_5a", 256, 160, 320, 32, 128, 128)
    x = inception(x, "inception_5b", 384, 192, 384, 48, 128, 128)
    x = g.flatten(g.avgpool(x, g.shape[x][2], 1, name="pool5"))
    return g.output(g.softmax(g.linear(x, 1000, "loss3.classifier", gain=1.0), "prob"))


def inception_v2(g, small):
    """BN-Inception (Ioffe & Szegedy 2015, Figure 5): conv-BN-ReLU everywhere, double 3x3 branches, average-pool
    projections (count_include_pad as PyTorch's default), stride-2 modules with a max-pool pass-through."""
    r = 96 if small else 224
    x = g.input("input", [1, 3, r, r])
    x = g.conv_bn_relu(x, 64, 7, s=2, p=3, name="conv1")
    x = g.maxpool(x, 3, 2, p=1, name="pool1")
    x = g.conv_bn_relu(x, 64, 1, name="conv2_reduce")
    x = g.conv_bn_relu(x, 192, 3, p=1, name="conv2")
    x = g.maxpool(x, 3, 2, p=1, name="pool2")

    def module(x, name, c1, r3, c3, rd, cd, pool, pp, stride=1):
        s = stride
        branches = []
        if c1:
            branches.append(g.conv_bn_relu(x, c1, 1, name=name + ".1x1"))
        b = g.conv_bn_relu(x, r3, 1, name=name + ".3x3_reduce")
        branches.append(g.conv_bn_relu(b, c3, 3, s=s, p=1, name=name + ".3x3"))
        b = g.conv_bn_relu(x, rd, 1, name=name + ".double_3x3_reduce")
        b = g.conv_bn_relu(b, cd, 3, p=1, name=name + ".double_3x3_1")
        branches.append(g.conv_bn_relu(b, cd, 3, s=s, p=1, name=name + ".double_3x3_2"))
        if pool == "avg":
            b = g.avgpool(x, 3, 1, p=1, name=name + ".pool", count_include_pad=1)
        else:
            b = g.maxpool(x, 3, s, p=1, name=name + ".pool")
        branches.append(g.conv_bn_relu(b, pp, 1, name=name + ".pool_proj") if pp else b)
        return g.concat(branches, name + ".output")

    x = module(x, "inception_3a", 64, 64, 64, 64, 96, "avg", 32)
    x = module(x, "inception_3b", 64, 64, 96, 64, 96, "avg", 64)
    x = module(x, "inception_3c", 0, 128, 160, 64, 96, "max", 0, stride=2)
    x = module(x, "inception_4a", 224, 64, 96, 96, 128, "avg", 128)
    x = module(x, "inception_4b", 192, 96, 128, 96, 128, "avg", 128)
    x = module(x, "inception_4c", 160, 128, 160, 128, 160, "avg", 128)
    x = module(x, "inception_4d", 96, 128, 192, 160, 192, "avg", 128)
    x = module(x, "inception_4e", 0, 128, 192, 192, 256, "max", 0, stride=2)
    x = module(x, "inception_5a", 352, 192, 320, 160, 224, "avg", 128)
    x = module(x, "inception_5b", 352, 192, 320, 192, 224, "max", 128)
    x = g.flatten(g.avgpool(x, g.shape[x][2], 1, name="global_pool"))
    return g.output(g.softmax(g.linear(x, 1000, "fc", gain=1.0)))


def resnet50(g, small):
    """ResNet-50 v1 (He et al. 2015): the stride in each stage's first 1x1 conv, projection shortcuts, BN."""
    r = 64 if small else 224
    x = g.input("input", [1, 3, r, r])
    x = g.conv_bn_relu(x, 64, 7, s=2, p=3, name="conv1")
    x = g.maxpool(x, 3, 2, p=1, name="maxpool")
    cin = 64
    for li, (width, blocks) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3)), 1):
        for bi in range(blocks):
            name = "layer%d.%d" % (li, bi)
            s = 2 if bi == 0 and li > 1 else 1
            y = g.conv_bn_relu(x, width, 1, s=s, name=name + ".1")
            y = g.conv_bn_relu(y, width, 3, p=1, name=name + ".2")
            y = g.conv_bn_relu(y, width * 4, 1, name=name + ".3", relu=False, gamma=RESIDUAL_GAMMA)
            if bi == 0:
                x = g.conv_bn_relu(x, width * 4, 1, s=s, name=name + ".downsample", relu=False)
            x = g.relu(g.add(x, y, name + ".add"), name + ".relu")
            cin = width * 4
    assert cin == 2048
    x = g.flatten(g.gap(x, "avgpool"))
    return g.output(g.linear(x, 1000, "fc", gain=1.0))


def densenet121(g, small):
    """DenseNet-121 (Huang et al. 2017) as torchvision exports it: each layer concatenates all earlier features
    (a one-input Concat for a block's first layer), BN-ReLU-Conv1x1(128)-BN-ReLU-Conv3x3(32)."""
    r = 64 if small else 224
    x = g.input("input", [1, 3, r, r])
    x = g.conv(x, 64, 7, s=2, p=3, bias=False, name="features.conv0")
    x = g.relu(g.bn(x, "features.norm0"), "features.relu0")
    x = g.maxpool(x, 3, 2, p=1, name="features.pool0")
    for bi, layers in enumerate((6, 12, 24, 16), 1):
        feats = [x]
        for li in range(1, layers + 1):
            name = "features.denseblock%d.denselayer%d" % (bi, li)
            y = g.concat(feats, name + ".cat")
            y = g.relu(g.bn(y, name + ".norm1"), name + ".relu1")
            y = g.conv(y, 128, 1, bias=False, name=name + ".conv1")
            y = g.relu(g.bn(y, name + ".norm2"), name + ".relu2")
            feats.append(g.conv(y, 32, 3, p=1, bias=False, name=name + ".conv2"))
        x = g.concat(feats, "features.denseblock%d" % bi)
        if bi < 4:
            name = "features.transition%d" % bi
            x = g.relu(g.bn(x, name + ".norm"), name + ".relu")
            x = g.conv(x, g.shape[x][1] // 2, 1, bias=False, name=name + ".conv")
            x = g.avgpool(x, 2, 2, name=name + ".pool")
    x = g.relu(g.bn(x, "features.norm5"), "features.relu5")
    x = g.flatten(g.gap(x, "avgpool"))
    return g.output(g.linear(x, 1000, "classifier", gain=1.0))


def squeezenet1_1(g, small):
    """SqueezeNet 1.1 (Iandola et al. 2016): fire modules (squeeze 1x1, expand 1x1 and 3x3 concatenated),
    ceil-mode max pools, a 1x1 conv classifier, global average pooling, softmax."""
    r = 64 if small else 224
    x = g.input("data", [1, 3, r, r])
    x = g.relu(g.conv(x, 64, 3, s=2, name="conv1"), "relu_conv1")
    x = g.maxpool(x, 3, 2, ceil=True, name="pool1")

    def fire(x, name, sq, e1, e3):
        s = g.relu(g.conv(x, sq, 1, name=name + ".squeeze1x1"), name + ".squeeze1x1.relu")
        a = g.relu(g.conv(s, e1, 1, name=name + ".expand1x1"), name + ".expand1x1.relu")
        b = g.relu(g.conv(s, e3, 3, p=1, name=name + ".expand3x3"), name + ".expand3x3.relu")
        return g.concat([a, b], name + ".concat")

    x = fire(x, "fire2", 16, 64, 64)
    x = fire(x, "fire3", 16, 64, 64)
    x = g.maxpool(x, 3, 2, ceil=True, name="pool3")
    x = fire(x, "fire4", 32, 128, 128)
    x = fire(x, "fire5", 32, 128, 128)
    x = g.maxpool(x, 3, 2, ceil=True, name="pool5")
    for name, sq, e in (("fire6", 48, 192), ("fire7", 48, 192), ("fire8", 64, 256), ("fire9", 64, 256)):
        x = fire(x, name, sq, e, e)
    x = g.relu(g.conv(x, 1000, 1, name="conv10", gain=1.0), "relu_conv10")
    x = g.flatten(g.gap(x, "pool10"))
    return g.output(g.softmax(x, "prob"))


def shufflenet_v1(g, small):
    """ShuffleNet v1, 3 groups (Zhang et al. 2017): grouped 1x1 convs, channel shuffle as Reshape-Transpose-
    Reshape, depthwise 3x3, stride-2 units concatenating an average-pooled shortcut; 240/480/960 channels."""
    groups = 3
    r = 64 if small else 224
    x = g.input("input", [1, 3, r, r])
    x = g.conv_bn_relu(x, 24, 3, s=2, p=1, name="conv1")
    x = g.maxpool(x, 3, 2, p=1, name="maxpool")

    def shuffle(x, name):
        n, c, h, w = g.shape[x]
        y = g.reshape(x, [n, groups, c // groups, h, w], name + ".reshape1")
        y = g.transpose(y, [0, 2, 1, 3, 4], name + ".transpose")
        return g.reshape(y, [n, c, h, w], name + ".reshape2")

    for si, (cout, repeats) in enumerate(((240, 4), (480, 8), (960, 4)), 2):
        for ui in range(repeats):
            name = "stage%d.%d" % (si, ui)
            cin = g.shape[x][1]
            s = 2 if ui == 0 else 1
            mid = cout // 4
            branch_out = cout - cin if s == 2 else cout
            g1 = 1 if (si == 2 and ui == 0) else groups
            y = g.conv_bn_relu(x, mid, 1, g=g1, name=name + ".gconv1")
            y = shuffle(y, name + ".shuffle")
            y = g.conv_bn_relu(y, mid, 3, s=s, p=1, g=mid, name=name + ".dwconv", relu=False)
            y = g.conv_bn_relu(y, branch_out, 1, g=groups, name=name + ".gconv2", relu=False,
                               gamma=1.0 if s == 2 else RESIDUAL_GAMMA)
            if s == 2:
                sc = g.avgpool(x, 3, 2, p=1, name=name + ".shortcut", count_include_pad=1)
                x = g.relu(g.concat([sc, y], name + ".concat"), name + ".relu")
            else:
                x = g.relu(g.add(x, y, name + ".add"), name + ".relu")
    x = g.flatten(g.gap(x, "globalpool"))
    return g.output(g.linear(x, 1000, "fc", gain=1.0))


def mobilenet_v2(g, small):
    """MobileNetV2 (Sandler et al. 2018) as PyTorch exports it in eval mode: BN folded into the convs' biases,
    ReLU6 as Clip(x, 0, 6) with the bounds as inputs, inverted residuals, depthwise convs (group = channels)."""
    r = 64 if small else 224
    x = g.input("input", [1, 3, r, r])
    # gain 4: the stem's pre-activations reach past 6 often enough for the clip to matter
    x = g.clip6(g.conv(x, 32, 3, s=2, p=1, name="features.0", gain=4.0), "features.0.relu6")
    cin, k = 32, 1
    for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)):
        for i in range(n):
            name = "features.%d" % k
            stride = s if i == 0 else 1
            hidden = cin * t
            y = x
            if t != 1:
                y = g.clip6(g.conv(y, hidden, 1, name=name + ".expand"), name + ".expand.relu6")
            y = g.clip6(g.conv(y, hidden, 3, s=stride, p=1, g=hidden, name=name + ".dw"), name + ".dw.relu6")
            y = g.conv(y, c, 1, name=name + ".project", gain=1.0)
            x = g.add(x, y, name + ".add") if stride == 1 and cin == c else y
            cin, k = c, k + 1
    x = g.clip6(g.conv(x, 1280, 1, name="features.18"), "features.18.relu6")
    x = g.flatten(g.gap(x, "avgpool"))
    return g.output(g.linear(x, 1000, "classifier.1", gain=1.0))


def espcn(g, small, rtr=False):
    """ESPCN (Shi et al. 2016), upscale 3: conv5x5(64)-tanh, conv3x3(32)-tanh, conv3x3(9), pixel shuffle (PyTorch
    exports it as DepthToSpace mode CRD; rtr: as the Reshape-Transpose-Reshape older exporters wrote)."""
    r = 64 if small else 224
    x = g.input("input", [1, 1, r, r])
    x = g.act("Tanh", g.conv(x, 64, 5, p=2, name="conv1", gain=1.0), "tanh1")
    x = g.act("Tanh", g.conv(x, 32, 3, p=1, name="conv2", gain=1.0), "tanh2")
    x = g.conv(x, 9, 3, p=1, name="conv3", gain=1.0)
    if rtr:
        y = g.reshape(x, [1, 1, 3, 3, r, r], "pixel_shuffle.reshape1")
        y = g.transpose(y, [0, 1, 4, 2, 5, 3], "pixel_shuffle.transpose")
        x = g.reshape(y, [1, 1, 3 * r, 3 * r], "pixel_shuffle")
    else:
        x = g.node("DepthToSpace", [x], [1, 1, 3 * r, 3 * r], "pixel_shuffle", blocksize=3, mode="CRD")
    return g.output(x)


def bert2(g, small):
    """A 2-layer BERT-base encoder (Devlin et al. 2018): word + position + token-type embeddings, post-LN
    layers of 12-head self-attention (hidden 768) and a GELU FFN (3072), the pooler; LayerNormalization at opset
    17, its PyTorch decomposition below (ReduceMean, Sub, Pow, Add, Sqrt, Div, Mul, Add)."""
    seq, vocab, hidden, heads, ffn = (32, 1024, 768, 12, 3072) if small else (128, 30522, 768, 12, 3072)
    dh = hidden // heads
    ids = g.input("input_ids", [1, seq], kind="ids", high=vocab)

    def layernorm(x, name, out=None):
        out = out or name
        gamma = g.param(name + ".weight", 1.0 + 0.1 * g.rng.standard_normal(hidden))
        beta = g.param(name + ".bias", 0.1 * g.rng.standard_normal(hidden))
        if g.opset >= 17:
            return g.node("LayerNormalization", [x, gamma, beta], g.shape[x], out, axis=-1, epsilon=1e-12)
        s = g.shape[x]
        mean = g.node("ReduceMean", [x], s[:-1] + [1], name + ".mean", axes=[-1], keepdims=1)
        d = g.binary("Sub", x, mean, name + ".sub")
        var = g.binary("Pow", d, g.const(name + ".two", 2.0), name + ".pow")
        var = g.node("ReduceMean", [var], s[:-1] + [1], name + ".var", axes=[-1], keepdims=1)
        var = g.binary("Add", var, g.const(name + ".eps", 1e-12), name + ".add_eps")
        std = g.act("Sqrt", var, name + ".sqrt")
        y = g.binary("Div", d, std, name + ".div")
        return g.binary("Add", g.binary("Mul", y, gamma, name + ".mul"), beta, out)

    word = g.param("embeddings.word_embeddings.weight", g.normal((vocab, hidden), 0.5))
    pos = g.param("embeddings.position_embeddings.weight", g.normal((512, hidden), 0.5))
    typ = g.param("embeddings.token_type_embeddings.weight", g.normal((2, hidden), 0.5))
    pos_ids = g.param("embeddings.position_ids", np.arange(seq).reshape(1, seq), np.int64)
    typ_ids = g.param("embeddings.token_type_ids", np.zeros((1, seq)), np.int64)
    x = g.node("Gather", [word, ids], [1, seq, hidden], "embeddings.word", axis=0)
    x = g.add(x, g.node("Gather", [typ, typ_ids], [1, seq, hidden], "embeddings.token_type", axis=0),
              "embeddings.add1")
    x = g.add(x, g.node("Gather", [pos, pos_ids], [1, seq, hidden], "embeddings.position", axis=0),
              "embeddings.add2")
    x = layernorm(x, "embeddings.LayerNorm")
    for li in range(2):
        p = "encoder.layer.%d" % li

        def heads_of(v, name, perm):
            v = g.reshape(v, [1, seq, heads, dh], name + ".reshape")
            return g.transpose(v, perm, name + ".transpose")

        q = heads_of(g.matmul_add(x, hidden, p + ".attention.self.query"), p + ".q", [0, 2, 1, 3])
        k = heads_of(g.matmul_add(x, hidden, p + ".attention.self.key"), p + ".k", [0, 2, 3, 1])
        v = heads_of(g.matmul_add(x, hidden, p + ".attention.self.value"), p + ".v", [0, 2, 1, 3])
        scores = g.node("MatMul", [q, k], [1, heads, seq, seq], p + ".scores")
        scores = g.binary("Div", scores, g.const(p + ".sqrt_dh", math.sqrt(dh)), p + ".scaled")
        probs = g.softmax(scores, p + ".softmax")
        ctx = g.node("MatMul", [probs, v], [1, heads, seq, dh], p + ".context")
        ctx = g.reshape(g.transpose(ctx, [0, 2, 1, 3], p + ".context.transpose"), [1, seq, hidden],
                        p + ".context.reshape")
        y = g.matmul_add(ctx, hidden, p + ".attention.output.dense")
        x = layernorm(g.add(y, x, p + ".attention.residual"), p + ".attention.output.LayerNorm")
        h = g.matmul_add(x, ffn, p + ".intermediate.dense")
        # gelu: x * 0.5 * (1.0 + erf(x / sqrt(2.0)))
        e = g.act("Erf", g.binary("Div", h, g.const(p + ".sqrt2", 1.4142135381698608), p + ".gelu.div"),
                  p + ".gelu.erf")
        e = g.binary("Add", e, g.const(p + ".one", 1.0), p + ".gelu.add")
        h = g.binary("Mul", g.binary("Mul", h, g.const(p + ".half", 0.5), p + ".gelu.half"), e, p + ".gelu")
        y = g.matmul_add(h, hidden, p + ".output.dense")
        x = layernorm(g.add(y, x, p + ".output.residual"), p + ".output.LayerNorm",
                      "last_hidden_state" if li == 1 else None)
    g.output(x)
    first = g.node("Gather", [x, g.const("pooler.first", 0, np.int64)], [1, hidden], "pooler.first_token", axis=1)
    w = g.param("pooler.dense.weight", g.normal((hidden, hidden), math.sqrt(1.0 / hidden)))
    pooled = g.node("MatMul", [first, w], [1, hidden], "pooler.dense.matmul")
    pooled = g.add(pooled, g.bias("pooler.dense.bias", hidden), "pooler.dense")
    return g.output(g.act("Tanh", pooled, "pooler_output"))


# name -> (builder, default opset)
MODELS = {
    "lenet5": (lenet5, 13), "alexnet": (alexnet, 13), "vgg16": (vgg16, 13), "googlenet": (googlenet, 13),
    "inception_v2": (inception_v2, 13), "resnet50": (resnet50, 17), "densenet121": (densenet121, 13),
    "squeezenet1_1": (squeezenet1_1, 13), "shufflenet_v1": (shufflenet_v1, 13), "mobilenet_v2": (mobilenet_v2, 13),
    "espcn": (espcn, 13), "bert2": (bert2, 17),
}

# variant name -> (model, options); options: opset, ir (version), symbatch, cos, rtr (espcn)
VARIANTS = {}
for _m in MODELS:
    VARIANTS[_m] = (_m, {})
VARIANTS.update({
    "lenet5-op17": ("lenet5", {"opset": 17}),
    "lenet5-ir9": ("lenet5", {"ir": 9}),
    "lenet5-symbatch": ("lenet5", {"symbatch": True}),
    "lenet5-cos": ("lenet5", {"cos": True}),
    "alexnet-op17": ("alexnet", {"opset": 17}),
    "vgg16-symbatch": ("vgg16", {"symbatch": True}),
    "googlenet-op17": ("googlenet", {"opset": 17}),
    "inception_v2-ir9": ("inception_v2", {"ir": 9}),
    "resnet50-op13": ("resnet50", {"opset": 13}),
    "resnet50-op13-ir9": ("resnet50", {"opset": 13, "ir": 9}),
    "resnet50-symbatch": ("resnet50", {"symbatch": True}),
    "squeezenet1_1-op17": ("squeezenet1_1", {"opset": 17}),
    "squeezenet1_1-symbatch": ("squeezenet1_1", {"symbatch": True}),
    "squeezenet1_1-cos": ("squeezenet1_1", {"cos": True}),
    "shufflenet_v1-op17": ("shufflenet_v1", {"opset": 17}),
    "mobilenet_v2-op17-ir9": ("mobilenet_v2", {"opset": 17, "ir": 9}),
    "espcn-rtr": ("espcn", {"rtr": True}),
    "espcn-op17": ("espcn", {"opset": 17}),
    "bert2-op13": ("bert2", {"opset": 13}),
    "bert2-ir9": ("bert2", {"ir": 9}),
})


def build(variant, small):
    """Returns (ModelProto, [(input name, value)])."""
    model, opts = VARIANTS[variant]
    fn, default_opset = MODELS[model]
    g = Graph(model, opts.get("opset", default_opset), cos=opts.get("cos", False),
              symbatch=opts.get("symbatch", False))
    if opts.get("rtr"):
        fn(g, small, rtr=True)
    else:
        fn(g, small)

    def info(name, shape, dtype):
        if g.symbatch:
            shape = ["batch_size"] + list(shape[1:])
        return helper.make_tensor_value_info(name, ELEMENT[np.dtype(dtype)], shape)

    graph = helper.make_graph(g.nodes, variant.replace("-", "_"),
                              [info(n, v.shape, v.dtype) for n, v in g.inputs],
                              [info(n, g.shape[n], np.float32) for n in g.outputs], initializer=g.inits)
    m = helper.make_model(graph, producer_name="tx8-aot models/make_zoo.py", producer_version="1",
                          opset_imports=[helper.make_opsetid("", g.opset)])
    m.ir_version = opts.get("ir", 8)
    if m.ir_version <= 8:
        onnx.checker.check_model(m)
    return m, g.inputs


def write(out, variant, small, expected=True):
    model, inputs = build(variant, small)
    d = os.path.join(out, variant)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    for f in os.listdir(os.path.join(d, "test_data_set_0")):  # no stale outputs of an earlier run
        os.remove(os.path.join(d, "test_data_set_0", f))
    with open(os.path.join(d, "model.onnx"), "wb") as fh:
        fh.write(model.SerializeToString())
    tensors = [("input", n, v) for n, v in inputs]
    if expected:
        outs = zoo_numpy.run(model, dict(inputs))
        tensors += [("output", o.name, v.astype(np.float32)) for o, v in zip(model.graph.output, outs)]
    count = {"input": 0, "output": 0}
    for kind, n, v in tensors:
        with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, count[kind])), "wb") as fh:
            fh.write(numpy_helper.from_array(v, n).SerializeToString())
        count[kind] += 1
    return model


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--models", default="*")
    ap.add_argument("--size", choices=("full", "small"), default="full")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--info", action="store_true")
    ap.add_argument("--no-expected", action="store_true")
    a = ap.parse_args(argv)
    chosen = []
    for pat in a.models.split(","):
        hits = [v for v in VARIANTS if fnmatch.fnmatchcase(v, pat)]
        if not hits:
            ap.error("no model variant matches '%s' (--list names them)" % pat)
        chosen += [v for v in hits if v not in chosen]
    if a.list:
        print("\n".join(chosen))
        return 0
    small = a.size == "small"
    if a.info:
        print("%-24s %-18s %12s %16s %6s" % ("name", "input", "params", "MACs", "nodes"))
        for v in chosen:
            model, inputs = build(v, small)
            p, m, n = zoo_numpy.stats(model)
            print("%-24s %-18s %12d %16d %6d" % (v, "x".join(map(str, inputs[0][1].shape)), p, m, n))
        return 0
    if not a.out:
        ap.error("OUT is required")
    for v in chosen:
        write(a.out, v, small, expected=not a.no_expected)
        print(v, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
