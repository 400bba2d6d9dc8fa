#!/usr/bin/python3
"""Writes ONNX test directories for blocks as PyTorch's exporter writes them that compiled and then faulted on the
chip (issue 33): a squeeze-and-excitation block (GlobalAveragePool -> 1x1 Conv -> Relu -> 1x1 Conv ->
HardSigmoid|Sigmoid -> Mul of the [1,C,H,W] map by the [1,C,1,1] scale: the scale is kept channel-last, byte for
byte the same as NCHW at 1x1, and op_mul was handed it in the wrong dim order), and ConvNeXt's permutes around a
LayerNorm at 1x1 spatial extent (Transpose [0,2,3,1] -> LayerNormalization -> MatMul -> Transpose [0,3,1,2], and
its LayerNorm2d head after the global pool: op_permute was handed an identity perm). Odd sizes, 1x1 maps and
channel counts that divide nothing; node names as torch.onnx.export writes them. And batched MatMuls as
attention exports them (issue 34: one op, its batch dims sharded and sliced, op_gemm looping over each step's
matrices): ViT's 1 x 12 heads, odd sizes, batch dims of extent 1 broadcast in either operand, operands of different
ranks, 128 matrices; their inputs positive (uniform in [0.1, 1.1)) so no sum cancels below test-onnx's
absolute tolerance. Expected outputs from numpy in float64 (rounded to float32), not from the compiler.

Usage: make_exporter_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from onnx_testdir import write_test

rng = np.random.RandomState(33)
out = sys.argv[1]


def f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def conv1x1(x, w, b):
    """[N,C,H,W] by [O,C,1,1] (+ b) in float64."""
    return np.einsum("nchw,oc->nohw", x.astype(np.float64), w[:, :, 0, 0].astype(np.float64)) + b[None, :, None, None]


def hard_sigmoid(x):
    return np.clip(x / 6.0 + 0.5, 0.0, 1.0)  # torch.nn.Hardsigmoid: alpha 1/6, beta 0.5


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


# Squeeze-and-excitation as MobileNetV3 (HardSigmoid) and EfficientNet / RegNetY (Sigmoid) write it.
for name, (c, r, h, w), gate in (("se_hardsigmoid_24x28", (24, 8, 28, 28), "HardSigmoid"),
                                 ("se_sigmoid_20x13", (20, 6, 13, 11), "Sigmoid"),
                                 ("se_hardsigmoid_72x7", (72, 24, 7, 7), "HardSigmoid")):
    x = rng.randn(1, c, h, w).astype(np.float32)
    w1, b1 = (rng.randn(r, c, 1, 1) * 0.3).astype(np.float32), rng.randn(r).astype(np.float32)
    w2, b2 = (rng.randn(c, r, 1, 1) * 0.3).astype(np.float32), rng.randn(c).astype(np.float32)
    pooled = x.astype(np.float64).mean(axis=(2, 3), keepdims=True)
    hidden = np.maximum(conv1x1(pooled, w1, b1), 0.0)
    scale = conv1x1(hidden, w2, b2)
    scale = hard_sigmoid(scale) if gate == "HardSigmoid" else sigmoid(scale)
    gate_attrs = {"alpha": 1.0 / 6, "beta": 0.5} if gate == "HardSigmoid" else {}
    nodes = [helper.make_node("GlobalAveragePool", ["input"], ["p"], name="/avgpool/GlobalAveragePool"),
             helper.make_node("Conv", ["p", "fc1.weight", "fc1.bias"], ["h"], name="/fc1/Conv", kernel_shape=[1, 1]),
             helper.make_node("Relu", ["h"], ["hr"], name="/activation/Relu"),
             helper.make_node("Conv", ["hr", "fc2.weight", "fc2.bias"], ["s"], name="/fc2/Conv", kernel_shape=[1, 1]),
             helper.make_node(gate, ["s"], ["g"], name="/scale_activation/" + gate, **gate_attrs),
             helper.make_node("Mul", ["input", "g"], ["output"], name="/Mul")]
    write_test(out, name, nodes, [("input", x)], [("output", f32(x * scale))], opset=13,
               initializers=[("fc1.weight", w1), ("fc1.bias", b1), ("fc2.weight", w2), ("fc2.bias", b2)])

# ConvNeXt's block at a 1x1 map (its last stage at a small input): permute to channels-last, LayerNorm, the
# pointwise Linear as MatMul + Add, permute back, the residual.
c, hidden = 40, 24
x = rng.randn(1, c, 1, 1).astype(np.float32)
gamma, beta = rng.randn(c).astype(np.float32), rng.randn(c).astype(np.float32)
wl, bl = (rng.randn(c, hidden) * 0.2).astype(np.float32), rng.randn(hidden).astype(np.float32)
wp = (rng.randn(hidden, c) * 0.2).astype(np.float32)
t = x.astype(np.float64).transpose(0, 2, 3, 1)
y = (layer_norm(t, gamma, beta) @ wl + bl) @ wp
nodes = [helper.make_node("Transpose", ["input"], ["t"], name="/block/Transpose", perm=[0, 2, 3, 1]),
         helper.make_node("LayerNormalization", ["t", "norm.weight", "norm.bias"], ["n"], name="/block/norm/LN",
                          axis=-1, epsilon=1e-6),
         helper.make_node("MatMul", ["n", "pwconv1.weight"], ["m1"], name="/block/pwconv1/MatMul"),
         helper.make_node("Add", ["m1", "pwconv1.bias"], ["a1"], name="/block/pwconv1/Add"),
         helper.make_node("MatMul", ["a1", "pwconv2.weight"], ["m2"], name="/block/pwconv2/MatMul"),
         helper.make_node("Transpose", ["m2"], ["back"], name="/block/Transpose_1", perm=[0, 3, 1, 2]),
         helper.make_node("Add", ["back", "input"], ["output"], name="/Add")]
write_test(out, "convnext_block_1x1", nodes, [("input", x)],
           [("output", f32(y.transpose(0, 3, 1, 2) + x))], opset=17,
           initializers=[("norm.weight", gamma), ("norm.bias", beta), ("pwconv1.weight", wl), ("pwconv1.bias", bl),
                         ("pwconv2.weight", wp)])

# ConvNeXt's head: global pool, LayerNorm2d (permute, LayerNorm, permute back), Flatten, Linear (Gemm).
c, classes = 36, 10
x = rng.randn(1, c, 5, 3).astype(np.float32)
gamma, beta = rng.randn(c).astype(np.float32), rng.randn(c).astype(np.float32)
wg, bg = (rng.randn(classes, c) * 0.2).astype(np.float32), rng.randn(classes).astype(np.float32)
pooled = x.astype(np.float64).mean(axis=(2, 3), keepdims=True)
normed = layer_norm(pooled.transpose(0, 2, 3, 1), gamma, beta).transpose(0, 3, 1, 2)
y = normed.reshape(1, c) @ wg.T.astype(np.float64) + bg
nodes = [helper.make_node("GlobalAveragePool", ["input"], ["p"], name="/avgpool/GlobalAveragePool"),
         helper.make_node("Transpose", ["p"], ["t"], name="/classifier.0/Transpose", perm=[0, 2, 3, 1]),
         helper.make_node("LayerNormalization", ["t", "ln.weight", "ln.bias"], ["n"], name="/classifier.0/LN",
                          axis=-1, epsilon=1e-6),
         helper.make_node("Transpose", ["n"], ["back"], name="/classifier.0/Transpose_1", perm=[0, 3, 1, 2]),
         helper.make_node("Flatten", ["back"], ["f"], name="/classifier.1/Flatten", axis=1),
         helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["output"], name="/classifier.2/Gemm", transB=1)]
write_test(out, "convnext_head_layernorm2d", nodes, [("input", x)], [("output", f32(y))], opset=17,
           initializers=[("ln.weight", gamma), ("ln.bias", beta), ("fc.weight", wg), ("fc.bias", bg)])


# ---- batched MatMuls (issue 34) ----

def positive(*shape):
    return (rng.rand(*shape) + 0.1).astype(np.float32)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# Self-attention as torch.onnx.export writes ViT's and BERT's: scores Q x K^T (a Transpose of K) per head, scaled,
# Softmax, times V: two batched MatMuls of [B,H,S,D] operands.
for name, (b, h, s, d) in (("attention_1x12_heads", (1, 12, 16, 8)), ("attention_2x3_heads_s7_d5", (2, 3, 7, 5))):
    q, k, v = positive(b, h, s, d), positive(b, h, s, d), positive(b, h, s, d)
    scale = np.float32(1.0 / np.sqrt(d))
    p = softmax(np.matmul(q.astype(np.float64), k.astype(np.float64).transpose(0, 1, 3, 2)) * scale)
    nodes = [helper.make_node("Transpose", ["key"], ["kt"], name="/attn/Transpose", perm=[0, 1, 3, 2]),
             helper.make_node("MatMul", ["query", "kt"], ["scores"], name="/attn/MatMul"),
             helper.make_node("Mul", ["scores", "scale"], ["scaled"], name="/attn/Mul"),
             helper.make_node("Softmax", ["scaled"], ["probs"], name="/attn/Softmax", axis=-1),
             helper.make_node("MatMul", ["probs", "value"], ["output"], name="/attn/MatMul_1")]
    write_test(out, name, nodes, [("query", q), ("key", k), ("value", v)], [("output", f32(p @ v))], opset=14,
               initializers=[("scale", np.array(scale, np.float32))])

# Batch dims of extent 1 broadcast (numpy): [1,H,S,D] x [B,1,D,T] and [B,1,S,D] x [1,H,D,T] -> [B,H,S,T].
b, h, s, d, t = 3, 4, 7, 5, 6
a1, b1 = positive(1, h, s, d), positive(b, 1, d, t)
a2, b2 = positive(b, 1, s, d), positive(1, h, d, t)
nodes = [helper.make_node("MatMul", ["a1", "b1"], ["y1"], name="/MatMul"),
         helper.make_node("MatMul", ["a2", "b2"], ["y2"], name="/MatMul_1")]
write_test(out, "matmul_broadcast_batch_dims", nodes, [("a1", a1), ("b1", b1), ("a2", a2), ("b2", b2)],
           [("y1", f32(np.matmul(a1.astype(np.float64), b1))), ("y2", f32(np.matmul(a2.astype(np.float64), b2)))],
           opset=13)

# Operands of different ranks (batch dims aligned from the right) and a rank-5 product.
x, w = positive(7, 5), positive(2, 3, 5, 6)
x2, w2 = positive(2, 3, 7, 5), positive(3, 5, 6)
x3, w3 = positive(2, 1, 3, 4, 5), positive(1, 2, 3, 5, 6)
nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="/MatMul"),
         helper.make_node("MatMul", ["x2", "w2"], ["y2"], name="/MatMul_1"),
         helper.make_node("MatMul", ["x3", "w3"], ["y3"], name="/MatMul_2")]
write_test(out, "matmul_mixed_ranks", nodes, [("x", x), ("w", w), ("x2", x2), ("w2", w2), ("x3", x3), ("w3", w3)],
           [("y", f32(np.matmul(x.astype(np.float64), w))), ("y2", f32(np.matmul(x2.astype(np.float64), w2))),
            ("y3", f32(np.matmul(x3.astype(np.float64), w3)))], opset=13)

# 128 matrices ([4,32,9,8] x [4,32,8,9]) and a bias row that runs on each step's box in SPM (MatMul + Add, one
# group).
a, bm, bias = positive(4, 32, 9, 8), positive(4, 32, 8, 9), positive(9)
nodes = [helper.make_node("MatMul", ["a", "b"], ["m"], name="/MatMul"),
         helper.make_node("Add", ["m", "bias"], ["output"], name="/Add")]
write_test(out, "matmul_128_matrices", nodes, [("a", a), ("b", bm)],
           [("output", f32(np.matmul(a.astype(np.float64), bm) + bias))], opset=13, initializers=[("bias", bias)])

# ---- linear layers and what follows them (issue 34, tx8be-linear-epilogue) ----

def erf(x):
    from math import erf as scalar_erf
    return np.vectorize(scalar_erf)(x)


# ViT's MLP as torch.onnx.export writes it at opset 13 on [1, S, D]: MatMul, bias Add, Gelu as its erf chain, MatMul,
# bias Add, the residual Add. The bias, Gelu and residual run in the MatMuls' groups (on the 2-D [S, D] MatMul
# result, before the row Reshape back to [1, S, D]).
s, d, f = 13, 24, 40
x, w1, b1, w2, b2 = positive(1, s, d), positive(d, f) - 0.6, positive(f) - 0.6, positive(f, d) - 0.6, positive(d)
h = x.astype(np.float64) @ w1 + b1
g = h * 0.5 * (1.0 + erf(h / np.sqrt(2.0)))
nodes = [helper.make_node("MatMul", ["x", "fc1.w"], ["h0"], name="/mlp/mlp.0/MatMul"),
         helper.make_node("Add", ["fc1.b", "h0"], ["h"], name="/mlp/mlp.0/Add"),
         helper.make_node("Div", ["h", "sqrt2"], ["hd"], name="/mlp/mlp.1/Div"),
         helper.make_node("Erf", ["hd"], ["he"], name="/mlp/mlp.1/Erf"),
         helper.make_node("Add", ["he", "one"], ["ha"], name="/mlp/mlp.1/Add"),
         helper.make_node("Mul", ["h", "ha"], ["hm"], name="/mlp/mlp.1/Mul"),
         helper.make_node("Mul", ["hm", "half"], ["g"], name="/mlp/mlp.1/Mul_1"),
         helper.make_node("MatMul", ["g", "fc2.w"], ["y0"], name="/mlp/mlp.3/MatMul"),
         helper.make_node("Add", ["fc2.b", "y0"], ["y1"], name="/mlp/mlp.3/Add"),
         helper.make_node("Add", ["x", "y1"], ["y"], name="/Add_1")]
write_test(out, "vit_mlp_block", nodes, [("x", x)], [("y", f32(x + (g @ w2 + b2)))], opset=13,
           initializers=[("fc1.w", w1), ("fc1.b", b1), ("fc2.w", w2), ("fc2.b", b2),
                         ("sqrt2", np.array(np.sqrt(2.0), np.float32)), ("one", np.array(1.0, np.float32)),
                         ("half", np.array(0.5, np.float32))])

# torchvision's MultiheadAttention input projection on a sequence-first [S, 1, D] (ViT transposes [1, S, D] to it):
# one packed [D, 3D] MatMul and its bias, chunked into q, k and v along the last dim (Slice at opset 13, Split in
# the second model). Each becomes its own projection of the cut weight and bias; the Transpose of the batch of 1
# is a Reshape.
s, d = 11, 16
x, w, bias = positive(1, s, d), positive(d, 3 * d) - 0.6, positive(3 * d)
proj = np.transpose(x, (1, 0, 2)).astype(np.float64) @ w + bias
expected = [("q", f32(proj[..., :d])), ("k", f32(proj[..., d:2 * d])), ("v", f32(proj[..., 2 * d:]))]
head = [helper.make_node("Transpose", ["x"], ["xt"], name="/Transpose", perm=[1, 0, 2]),
        helper.make_node("MatMul", ["xt", "in_proj.w"], ["p0"], name="/self_attention/MatMul"),
        helper.make_node("Add", ["in_proj.b", "p0"], ["p"], name="/self_attention/Add")]
slices = [helper.make_node("Slice", ["p", f"start{i}", f"end{i}", "axis"], [n], name=f"/self_attention/Slice_{i}")
          for i, n in enumerate("qkv")]
consts = [("in_proj.w", w), ("in_proj.b", bias), ("axis", np.array([-1], np.int64))]
consts += [(f"start{i}", np.array([i * d], np.int64)) for i in range(3)]
consts += [(f"end{i}", np.array([(i + 1) * d], np.int64)) for i in range(3)]
write_test(out, "qkv_packed_projection_slices", head + slices, [("x", x)], expected, opset=13, initializers=consts)
split = [helper.make_node("Split", ["p", "sizes"], ["q", "k", "v"], name="/self_attention/Split", axis=-1)]
write_test(out, "qkv_packed_projection_split", head + split, [("x", x)], expected, opset=13,
           initializers=[("in_proj.w", w), ("in_proj.b", bias), ("sizes", np.array([d, d, d], np.int64))])
