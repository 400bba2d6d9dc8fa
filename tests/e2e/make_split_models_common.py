"""Shared by make_split_models.py and make_ksplit_models.py: seeded random tensors and a float64 convolution."""
import numpy as np

rng = np.random.RandomState(71)
f32 = np.float32


def randn(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f32)


def conv2d(x, w, b=None, pad=0, stride=1, group=1):
    """float64 NCHW convolution: x [N, C, H, W], w [O, C/group, KH, KW]."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, o, oh, ow))
    og = o // group
    for g in range(group):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = w[g * og:(g + 1) * og]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
                y[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, ws[:, :, i, j])
    if b is not None:
        y += b.astype(np.float64)[None, :, None, None]
    return y
