#!/usr/bin/python3
"""Writes ONNX test directories whose layers fit a 16 KiB SPM only with their reduction cut into parts (a Gemm's
and a MatMul's K, a Conv's input channels): each part adds to the fp32 output kept in SPM, the last adds the
bias. Compiled with tests/e2e/spm16k.json (generated-tests.sh --hw). Expected outputs come from numpy in
float64, not from the compiler.

Usage: make_ksplit_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from make_split_models_common import conv2d, randn
from onnx_testdir import write_test

out = sys.argv[1]
f32 = np.float32

# Gemm with a 4096-long K (one row of x is 16 KiB: no output slice fits with K whole) and a bias.
x, w, b = randn(4, 4096), randn(4096, 24, scale=1 / 64), randn(24)
write_test(out, "gemm_k4096_split", [helper.make_node("Gemm", ["x", "w", "b"], ["y"])],
           [("x", x)], [("y", (x.astype(np.float64) @ w + b).astype(f32))], opset=13,
           initializers=[("w", w), ("b", b)])

# MatMul of two run-time operands, K = 3000 (not a multiple of the part length).
a, bm = randn(3, 3000), randn(3000, 5, scale=1 / 55)
write_test(out, "matmul_k3000_split", [helper.make_node("MatMul", ["a", "b"], ["y"])],
           [("a", a), ("b", bm)], [("y", (a.astype(np.float64) @ bm).astype(f32))], opset=13)

# A batched MatMul (issue 34), K = 2500, B broadcast along the heads: a step's box holds parts of K of one or more
# matrices (one row of one matrix of A is 10 KiB).
a, bm = randn(2, 3, 4, 2500), randn(2, 1, 2500, 3, scale=1 / 50)
write_test(out, "batched_matmul_k2500_split", [helper.make_node("MatMul", ["a", "b"], ["y"])],
           [("a", a), ("b", bm)], [("y", np.matmul(a.astype(np.float64), bm).astype(f32))], opset=13)

# A 3x3 conv with 256 input channels on 8 x 8 (one output row reads 3 input rows of 8 KiB each) and a bias.
x, w, b = randn(1, 256, 8, 8), randn(16, 256, 3, 3, scale=1 / 48), randn(16)
write_test(out, "conv_c256_split", [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
           [("x", x)], [("y", conv2d(x, w, b, pad=1).astype(f32))], opset=13, initializers=[("w", w), ("b", b)])
