#!/usr/bin/python3
"""Writes ONNX test directories for the norms and activations as torch.onnx.export (torch 1.13) writes them
(issue 34, item 3): nn.LayerNorm at opset 14 (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add: what
tx8be-fuse-norms turns into one tx8be.LayerNorm) and at opset 17 (LayerNormalization, imported as one), over one
and two trailing dims, with and without the affine part; an RMSNorm as LLaMA writes it (x * rsqrt(mean(x^2) +
eps) * weight); nn.GELU() and nn.GELU('tanh') (the Erf and Tanh chains, fused into tx8be.Gelu); and
a ViT-style MLP block (Linear, GELU, Linear, residual, LayerNorm) whose Linears --precision bf16 narrows.
Inputs with a mean away from 0 so that the centring matters. Expected outputs from numpy in float64 (rounded to
float32) with the modules' own weights, not from the compiler or from torch.

Usage: make_norm_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import io
import math
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

torch.manual_seed(34)
rng = np.random.RandomState(34)
out = sys.argv[1]


class RMSNorm(nn.Module):
    """LLaMA's RMSNorm."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(d) * 0.5 + 1.0)
        self.eps = eps

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


class MlpBlock(nn.Module):
    """ViT's MLP half: y = LayerNorm(x + fc2(GELU(fc1(x))))."""

    def __init__(self, d, hidden):
        super().__init__()
        self.fc1, self.act, self.fc2 = nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d)
        self.norm = nn.LayerNorm(d, eps=1e-6)

    def forward(self, x):
        return self.norm(x + self.fc2(self.act(self.fc1(x))))


def params(m):
    return {k: v.detach().numpy().astype(np.float64) for k, v in m.state_dict().items()}


def layer_norm(x, dims, gamma=None, beta=None, eps=1e-5):
    axes = tuple(range(x.ndim - dims, x.ndim))
    d = x - x.mean(axis=axes, keepdims=True)
    y = d / np.sqrt((d * d).mean(axis=axes, keepdims=True) + eps)
    if gamma is not None:
        y = y * gamma
    if beta is not None:
        y = y + beta
    return y


def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def export(name, module, x, want, opset):
    """torch.onnx.export of module at x into OUT/NAME with x and the expected float32 output; prints NAME."""
    module.eval()
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(module, torch.from_numpy(x), buf, opset_version=opset, input_names=["input"],
                          output_names=["output"], do_constant_folding=True)
    model = onnx.load_from_string(buf.getvalue())
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, n, v in (("input", "input", x), ("output", "output", np.asarray(want).astype(np.float32))):
        with open(os.path.join(d, "test_data_set_0", "%s_0.pb" % kind), "wb") as fh:
            fh.write(numpy_helper.from_array(v, n).SerializeToString())
    print(name)


def randn(*shape, mean=0.0):
    return (rng.randn(*shape) + mean).astype(np.float32)


# nn.LayerNorm over the last dim (ViT / BERT), at both opsets; its weights made non-trivial.
for opset in (14, 17):
    ln = nn.LayerNorm(40)
    with torch.no_grad():
        ln.weight.copy_(torch.randn(40) * 0.5 + 1.0)
        ln.bias.copy_(torch.randn(40))
    x = randn(2, 7, 40, mean=3.0)
    p = params(ln)
    export("layernorm_op%d" % opset, ln, x, layer_norm(x.astype(np.float64), 1, p["weight"], p["bias"]), opset)

# Two normalised dims, and no affine part.
ln2 = nn.LayerNorm([6, 10], eps=1e-3)
with torch.no_grad():
    ln2.weight.copy_(torch.randn(6, 10))
    ln2.bias.copy_(torch.randn(6, 10))
x = randn(3, 6, 10, mean=-2.0)
p = params(ln2)
for opset in (14, 17):
    export("layernorm_2dims_op%d" % opset, ln2, x, layer_norm(x.astype(np.float64), 2, p["weight"], p["bias"], 1e-3),
           opset)
plain = nn.LayerNorm(24, elementwise_affine=False)
x = randn(5, 24, mean=1.0)
export("layernorm_plain_op14", plain, x, layer_norm(x.astype(np.float64), 1), 14)

# RMSNorm (LLaMA).
rms = RMSNorm(48)
x = randn(1, 9, 48, mean=0.5)
w = params(rms)["weight"]
xd = x.astype(np.float64)
export("rmsnorm_op14", rms, x, w * (xd / np.sqrt((xd * xd).mean(axis=-1, keepdims=True) + 1e-6)), 14)

# GELU, exact and tanh.
x = (rng.randn(2, 5, 33) * 3).astype(np.float32)
export("gelu_op14", nn.GELU(), x, gelu(x.astype(np.float64)), 14)
export("gelu_tanh_op14", nn.GELU(approximate="tanh"), x, gelu_tanh(x.astype(np.float64)), 14)

# ViT's MLP block: Linear 32 -> 64, GELU, Linear 64 -> 32, residual, LayerNorm.
block = MlpBlock(32, 64)
x = randn(1, 11, 32)
p = params(block)
xd = x.astype(np.float64)
h = gelu(xd @ p["fc1.weight"].T + p["fc1.bias"])
y = layer_norm(xd + h @ p["fc2.weight"].T + p["fc2.bias"], 1, p["norm.weight"], p["norm.bias"], 1e-6)
for opset in (14, 17):
    export("mlp_block_op%d" % opset, block, x, y, opset)
