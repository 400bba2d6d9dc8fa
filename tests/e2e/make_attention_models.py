#!/usr/bin/python3
"""Writes ONNX test directories of attention blocks exported by torch.onnx.export (torch 1.13), which
tx8be-fuse-attention turns into one tx8be.Attention (issue 34, item 2): torch.nn.MultiheadAttention (its
_scaled_dot_product_attention divides q by sqrt(E): ViT's form), a BERT self-attention with an additive mask
[B,1,1,S] (scores / sqrt(d) + mask), a GPT block with a causal mask (a constant lower triangle, masked_fill with
-inf; Where in ONNX), and a GPT block whose triangle is torch.tril of ones (Trilu from opset 14). Each at opsets 14
and 17. Expected outputs from PyTorch in float64 (rounded to float32), not from the compiler.

Usage: make_attention_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import io
import math
import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

torch.manual_seed(34)
out = sys.argv[1]


class Bert(torch.nn.Module):
    def __init__(self, e, h):
        super().__init__()
        self.h, self.d = h, e // h
        self.q, self.k, self.v = torch.nn.Linear(e, e), torch.nn.Linear(e, e), torch.nn.Linear(e, e)

    def heads(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.h, self.d).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.heads(self.q(x)), self.heads(self.k(x)), self.heads(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d) + mask
        p = torch.softmax(scores, dim=-1)
        y = torch.matmul(p, v).permute(0, 2, 1, 3)
        return y.reshape(x.shape)


class Gpt(torch.nn.Module):
    def __init__(self, e, h, s, tril):
        super().__init__()
        self.h, self.d, self.s, self.tril = h, e // h, s, tril
        self.qkv = torch.nn.Linear(e, 3 * e)
        self.register_buffer("bias", torch.tril(torch.ones(s, s, dtype=torch.bool)).view(1, 1, s, s))

    def forward(self, x):
        b, s, e = x.shape
        q, k, v = self.qkv(x).split(e, dim=2)
        q, k, v = (t.view(b, s, self.h, self.d).transpose(1, 2) for t in (q, k, v))
        w = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(self.d))
        keep = torch.tril(torch.ones(s, s, dtype=torch.bool)) if self.tril else self.bias[:, :, :s, :s]
        w = w.masked_fill(~keep, float("-inf"))
        p = torch.softmax(w, dim=-1)
        return torch.matmul(p, v).transpose(1, 2).reshape(b, s, e)


class Mha(torch.nn.Module):
    def __init__(self, e, h):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(e, h)  # [S, B, E]: the export path without the fused fast path

    def forward(self, x):
        return self.mha(x, x, x, need_weights=False)[0]


def export(name, model, inputs, opset):
    model.eval()
    with torch.no_grad():
        want = model.double()(*[t.double() for t in inputs]).float().numpy()
        model.float()
    f = io.BytesIO()
    names = ["input", "mask"][: len(inputs)]
    torch.onnx.export(model, tuple(inputs), f, opset_version=opset, input_names=names, output_names=["output"])
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(onnx.load_from_string(f.getvalue()), os.path.join(d, "model.onnx"))
    for kind, tensors in (("input", [(n, t.numpy()) for n, t in zip(names, inputs)]), ("output", [("output", want)])):
        for k, (n, v) in enumerate(tensors):
            with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, k)), "wb") as fh:
                fh.write(numpy_helper.from_array(v, n).SerializeToString())
    print(name)


for opset in (14, 17):
    x = torch.rand(2, 9, 32) - 0.5
    mask = torch.zeros(2, 1, 1, 9)
    mask[1, :, :, 6:] = -10000.0  # the second sequence is padded after 6 tokens
    export("bert_self_attention_opset%d" % opset, Bert(32, 4), [x, mask], opset)
    export("gpt_causal_buffer_opset%d" % opset, Gpt(32, 4, 9, False), [torch.rand(2, 9, 32) - 0.5], opset)
    export("gpt_causal_tril_opset%d" % opset, Gpt(24, 3, 7, True), [torch.rand(1, 7, 24) - 0.5], opset)
    export("torch_mha_opset%d" % opset, Mha(32, 4), [torch.rand(11, 2, 32) - 0.5], opset)
