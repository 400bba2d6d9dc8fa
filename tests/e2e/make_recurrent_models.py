#!/usr/bin/python3
"""Writes ONNX test directories (model.onnx, test_data_set_0/input_<k>.pb, output_<k>.pb) for the recurrent
layers in the forms the ONNX backend data does not cover: both directions, reverse, layout 1, clip, peepholes,
initial states, GRU's linear_before_reset, activations with alpha/beta, and sequence lengths computed at run
time. The expected outputs come from the numpy implementation below, written from the ONNX operator docs
(RNN, GRU, LSTM; float64, then rounded to float32), not from the compiler.

Usage: make_recurrent_models.py OUT_DIR  (one subdirectory per model; their names are printed)
"""
import sys

import numpy as np
from onnx import helper

from onnx_testdir import write_test

rng = np.random.RandomState(41)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# activation name -> f(x, alpha, beta); alpha/beta are taken in order by the activations that use them
ACTIVATIONS = {
    "Tanh": (lambda x, a, b: np.tanh(x), 0, 0),
    "Sigmoid": (lambda x, a, b: sigmoid(x), 0, 0),
    "Relu": (lambda x, a, b: np.maximum(x, 0), 0, 0),
    "LeakyRelu": (lambda x, a, b: np.where(x >= 0, x, a * x), 1, 0),
    "HardSigmoid": (lambda x, a, b: np.clip(a * x + b, 0, 1), 1, 1),
    "Softsign": (lambda x, a, b: x / (1 + np.abs(x)), 0, 0),
    "Affine": (lambda x, a, b: a * x + b, 1, 1),
    "ScaledTanh": (lambda x, a, b: a * np.tanh(b * x), 1, 1),
}
DEFAULT_AB = {"LeakyRelu": (0.01, 0), "HardSigmoid": (0.2, 0.5)}


def bind_activations(names, alphas, betas):
    fs, ia, ib = [], 0, 0
    for name in names:
        f, na, nb = ACTIVATIONS[name]
        a, b = DEFAULT_AB.get(name, (0, 0))
        if na:
            a, ia = (alphas[ia], ia + 1) if ia < len(alphas) else (a, ia)
        if nb:
            b, ib = (betas[ib], ib + 1) if ib < len(betas) else (b, ib)
        fs.append(lambda x, f=f, a=a, b=b: f(x, a, b))
    return fs


def run(cell, x, w, r, b, lens, h0, c0, p, hidden, direction, layout, clip, lbr, acts):
    """Y, Y_h, Y_c (Y_c None but for LSTM) of ONNX's RNN / GRU / LSTM, in float64."""
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    seq, batch, _ = x.shape
    dirs = 2 if direction == "bidirectional" else 1
    per = {"RNN": 1, "GRU": 2, "LSTM": 3}[cell]
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
    lens = np.full(batch, seq) if lens is None else lens
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    y = np.zeros((seq, dirs, batch, hidden))
    yh = np.zeros((dirs, batch, hidden))
    yc = np.zeros((dirs, batch, hidden))
    for d in range(dirs):
        f = acts[d * per:(d + 1) * per]
        W, R = w[d], r[d]
        Wb, Rb = (b[d][:gates * hidden], b[d][gates * hidden:]) if b is not None else (0, 0)
        Wb = np.broadcast_to(Wb, gates * hidden)
        Rb = np.broadcast_to(Rb, gates * hidden)
        reverse = direction == "reverse" or d == 1
        for n in range(batch):
            H = np.zeros(hidden) if h0 is None else h0[d, n].copy()
            C = np.zeros(hidden) if c0 is None else c0[d, n].copy()
            steps = range(lens[n] - 1, -1, -1) if reverse else range(lens[n])
            for t in steps:
                xt = x[t, n]
                if cell == "RNN":
                    H = f[0](cl(W @ xt + R @ H + Wb + Rb))
                elif cell == "GRU":
                    s = slice(0, hidden), slice(hidden, 2 * hidden), slice(2 * hidden, 3 * hidden)
                    z = f[0](cl(W[s[0]] @ xt + R[s[0]] @ H + Wb[s[0]] + Rb[s[0]]))
                    rr = f[0](cl(W[s[1]] @ xt + R[s[1]] @ H + Wb[s[1]] + Rb[s[1]]))
                    if lbr:
                        hh = f[1](cl(W[s[2]] @ xt + rr * (R[s[2]] @ H + Rb[s[2]]) + Wb[s[2]]))
                    else:
                        hh = f[1](cl(W[s[2]] @ xt + R[s[2]] @ (rr * H) + Rb[s[2]] + Wb[s[2]]))
                    H = (1 - z) * hh + z * H
                else:
                    g = W @ xt + R @ H + Wb + Rb
                    i_, o_, f_, c_ = (g[k * hidden:(k + 1) * hidden] for k in range(4))
                    pi, po, pf = (p[d][k * hidden:(k + 1) * hidden] for k in range(3)) if p is not None else (0, 0, 0)
                    i = f[0](cl(i_ + pi * C))
                    ff = f[0](cl(f_ + pf * C))
                    C = ff * C + i * f[1](cl(c_))
                    o = f[0](cl(o_ + po * C))
                    H = o * f[2](C)
                y[t, d, n] = H
            yh[d, n], yc[d, n] = H, C
    if layout:
        y, yh, yc = y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2), yc.transpose(1, 0, 2)
    return y, yh, (yc if cell == "LSTM" else None)


def write(out, name, cell, seq, batch, inp, hidden, direction="forward", layout=0, clip=None, lbr=0,
          activations=None, alphas=(), betas=(), bias=True, lens=None, initial=False, peepholes=False):
    dirs = 2 if direction == "bidirectional" else 1
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
    x = rng.randn(*((batch, seq, inp) if layout else (seq, batch, inp))).astype(np.float32)
    w = (rng.randn(dirs, gates * hidden, inp) * 0.6).astype(np.float32)
    r = (rng.randn(dirs, gates * hidden, hidden) * 0.6).astype(np.float32)
    b = (rng.randn(dirs, 2 * gates * hidden) * 0.5).astype(np.float32) if bias else None
    state = (batch, dirs, hidden) if layout else (dirs, batch, hidden)
    h0 = rng.randn(*state).astype(np.float32) if initial else None
    c0 = rng.randn(*state).astype(np.float32) if initial and cell == "LSTM" else None
    p = (rng.randn(dirs, 3 * hidden) * 0.5).astype(np.float32) if peepholes else None
    lens_arr = None if lens is None else np.array(lens, dtype=np.int32)
    per = {"RNN": 1, "GRU": 2, "LSTM": 3}[cell]
    default = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[cell]
    names = activations or default * dirs
    assert len(names) == per * dirs
    acts = bind_activations(names, list(alphas), list(betas))
    f64 = lambda v: None if v is None else v.astype(np.float64)
    y, yh, yc = run(cell, f64(x), f64(w), f64(r), f64(b), lens_arr, f64(h0), f64(c0), f64(p), hidden, direction,
                    layout, clip, lbr, acts)

    inputs = [("X", x), ("W", w), ("R", r), ("B", b), ("sequence_lens", lens_arr), ("initial_h", h0)]
    if cell == "LSTM":
        inputs += [("initial_c", c0), ("P", p)]
    while inputs[-1][1] is None:
        inputs.pop()
    given = [(n, v) for n, v in inputs if v is not None]
    outputs = [("Y", y), ("Y_h", yh)] + ([("Y_c", yc)] if cell == "LSTM" else [])
    attrs = {"hidden_size": hidden, "direction": direction}
    if layout:
        attrs["layout"] = layout
    if clip:
        attrs["clip"] = clip
    if lbr:
        attrs["linear_before_reset"] = lbr
    if activations:
        attrs["activations"] = activations
    if alphas:
        attrs["activation_alpha"] = list(alphas)
    if betas:
        attrs["activation_beta"] = list(betas)
    node = helper.make_node(cell, [n if v is not None else "" for n, v in inputs], [n for n, _ in outputs], **attrs)
    write_test(out, name, [node], given, [(n, v.astype(np.float32)) for n, v in outputs], opset=14)

out = sys.argv[1]
write(out, "lstm_bidirectional_clip_peepholes", "LSTM", 4, 2, 3, 5, direction="bidirectional", clip=0.9,
      initial=True, peepholes=True)
write(out, "lstm_sequence_lens_layout1", "LSTM", 5, 3, 2, 4, layout=1, lens=[2, 5, 3], initial=True)
write(out, "gru_reverse_linear_before_reset_layout1", "GRU", 4, 2, 3, 4, direction="reverse", layout=1, lbr=1,
      initial=True, activations=["HardSigmoid", "Softsign"], alphas=[0.3], betas=[0.6])
write(out, "gru_bidirectional_activation_params", "GRU", 3, 2, 2, 3, direction="bidirectional",
      activations=["LeakyRelu", "Tanh", "HardSigmoid", "Affine"], alphas=[0.1, 0.3, 0.5], betas=[0.6, 0.2])
write(out, "rnn_sequence_lens_relu", "RNN", 5, 3, 3, 4, lens=[5, 1, 3], activations=["Relu"], initial=True)
write(out, "rnn_reverse_scaledtanh_no_bias", "RNN", 3, 2, 4, 3, direction="reverse", bias=False,
      activations=["ScaledTanh"], alphas=[1.5], betas=[0.7])
