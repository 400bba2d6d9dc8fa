#!/usr/bin/python3
"""Writes ONNX test directories for Einsum (lowered at import to Transpose / Reshape / MatMul / ReduceSum / Mul):
float32 twins of the ONNX backend's five Einsum node tests (whose data is float64, which the device does not
compute), the equations exporters write (MaxViT's and Swin's attention `bhid,bhjd->bhij` / `bhij,bhjd->bhid`,
with a Softmax and a training-mode Dropout of ratio 0 between them as torch.onnx.export writes Swin's; MaxViT's
5-D form over 128 matrices), the implicit form, ellipses with broadcasting, diagonals, summed-alone letters, three
operands, broadcast letters.
Expected outputs come from numpy's einsum in float64, rounded to float32, not from the compiler. Inputs are
positive (uniform in [0.1, 1.1)) so no sum cancels below test-onnx's absolute tolerance.

Usage: make_einsum_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from onnx_testdir import write_test

rng = np.random.RandomState(33)
out = sys.argv[1]


def f32(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def data(*shape):
    return (rng.rand(*shape) + 0.1).astype(np.float32)


def einsum_model(name, equation, shapes, opset=12):
    inputs = [("x%d" % k, data(*s)) for k, s in enumerate(shapes)]
    y = np.einsum(equation.replace(" ", ""), *[v.astype(np.float64) for _, v in inputs])
    node = helper.make_node("Einsum", [n for n, _ in inputs], ["y"], equation=equation)
    write_test(out, name, [node], inputs, [("y", f32(y))], opset)


# The ONNX backend's Einsum node tests with their equations (spaces included) and shapes, in float32.
einsum_model("einsum_batch_diagonal_f32", "...ii ->...i", [(3, 5, 5)])
einsum_model("einsum_batch_matmul_f32", "bij, bjk -> bik", [(5, 2, 3), (5, 3, 4)])
einsum_model("einsum_inner_prod_f32", "i,i", [(5,), (5,)])
einsum_model("einsum_sum_f32", "ij->i", [(3, 4)])
einsum_model("einsum_transpose_f32", "ij->ji", [(3, 4)])

# What exporters write: attention scores and values (MaxViT, Swin), a Linear's matmul, the implicit form.
einsum_model("einsum_attention_scores", "bhid,bhjd->bhij", [(2, 3, 7, 8), (2, 3, 5, 8)])
einsum_model("einsum_attention_values", "bhij,bhjd->bhid", [(2, 3, 7, 5), (2, 3, 5, 8)])
einsum_model("einsum_bmm", "bij,bjk->bik", [(3, 4, 6), (3, 6, 5)])
einsum_model("einsum_matmul_implicit", "ij,jk", [(4, 6), (6, 3)])
einsum_model("einsum_diagonal", "ii->i", [(6, 6)])
einsum_model("einsum_trace_implicit", "ii", [(4, 4)])
# Ellipses: leading batch dims (MaxViT's grid attention), one operand without them (numpy broadcasting).
einsum_model("einsum_ellipsis_attention", "...id,...jd->...ij", [(2, 3, 4, 8), (2, 3, 5, 8)])
einsum_model("einsum_ellipsis_broadcast", "...ij,...jk", [(5, 2, 3), (3, 4)])
# Many matrices (issue 34: one batched MatMul, not one per matrix): grid attention with ellipses over 2 x 8 x 20
# windows, 320 matrices (more than the 256 tx8be-decompose unrolled).
einsum_model("einsum_ellipsis_320_matrices", "...id,...jd->...ij", [(2, 8, 20, 7, 5), (2, 8, 20, 6, 5)])
# Labels in one operand only and not in the output (summed first), a sum of everything, two letters contracted
# at once, an outer product, a repeated letter with a
# kept one, uppercase letters (distinct from lowercase ones; not in implicit mode: ONNX 1.12's shape inference
# gives 'bA,ba' a rank-1 output where numpy's is 'Aa').
einsum_model("einsum_summed_alone", "bij,bjk->bk", [(2, 3, 4), (2, 4, 5)])
einsum_model("einsum_sum_all", "ij->", [(3, 4)])
einsum_model("einsum_batched_dot", "bij,bij->b", [(3, 4, 5), (3, 4, 5)])
einsum_model("einsum_outer", "i,j->ij", [(4,), (3,)])
einsum_model("einsum_diagonal_kept", "iij->ji", [(3, 3, 2)])
einsum_model("einsum_uppercase", "bA,ba->aA", [(2, 3), (2, 4)])
# Three operands (folded left), and letters of extent 1 broadcast against a larger one (numpy's rule).
einsum_model("einsum_three_operands", "ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)])
einsum_model("einsum_broadcast_letter", "ij,ij->ij", [(1, 3), (4, 3)])

# Swin-style window attention: scores by Einsum, Softmax, Dropout in training mode with ratio 0 (an identity,
# whatever the mode: torch.onnx.export writes it so for attn_drop=0.0 in a model exported in train mode), values
# by Einsum.
q, k, v = data(1, 2, 6, 4), data(1, 2, 6, 4), data(1, 2, 6, 4)
s = np.einsum("bhid,bhjd->bhij", q.astype(np.float64), k.astype(np.float64)) * 0.5
p = np.exp(s - s.max(axis=-1, keepdims=True))
p /= p.sum(axis=-1, keepdims=True)
y = np.einsum("bhij,bhjd->bhid", p, v.astype(np.float64))
nodes = [
    helper.make_node("Einsum", ["q", "k"], ["s"], equation="bhid,bhjd->bhij"),
    helper.make_node("Mul", ["s", "scale"], ["ss"]),
    helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
    helper.make_node("Dropout", ["p", "ratio", "training"], ["pd"], seed=0),
    helper.make_node("Einsum", ["pd", "v"], ["y"], equation="bhij,bhjd->bhid"),
]
inits = [("scale", np.array(0.5, np.float32)), ("ratio", np.array(0.0, np.float32)),
         ("training", np.array(True))]
write_test(out, "swin_attention_einsum_dropout", nodes, [("q", q), ("k", k), ("v", v)], [("y", f32(y))], 13,
           initializers=inits)

# MaxViT's window attention as torch.onnx.export writes it (5-D, spaces, uppercase): 64 windows x 2 heads = 128
# matrices per product, more than tx8be-decompose once unrolled (64). Last, so the models above keep their data.
einsum_model("einsum_maxvit_windows", "B G H I D, B G H J D -> B G H I J", [(1, 64, 2, 4, 16), (1, 64, 2, 4, 16)])
