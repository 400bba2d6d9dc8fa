"""The blocks the plan fuzzer builds models from: the patterns PyTorch models are made of and torch.onnx.export
writes (squeeze-and-excitation, residual and inverted-bottleneck blocks, depthwise / grouped / dilated convs,
attention with a mask, embeddings, LayerNorm fused and decomposed, Concat / Split, Pad before pools, NCHW <-> NHWC permutes,
pixel shuffle, Resize, Gemm heads, reductions on any axes), each with random small shapes drawn from a
random.Random: odd sizes, 1x1 maps, channel counts that divide nothing.

A block is described by a spec, a plain dict {"kind": ..., shape parameters..., "seed": ...}, so a failing case is
replayed exactly from its JSON (tests/planfuzz/regressions/). make_block(spec) builds the torch module (weights
from the spec's seed) and its input tensor.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZES = (1, 2, 3, 5, 7, 8, 9, 13, 16, 17)


def _channels(rng, lo=1, hi=48):
    return rng.choice((lo, 3, 5, 7, 12, 16, 20, 24, 31, 40, hi))


def _randomise_bn(bn, gen):
    """Random running statistics and affine parameters, so folding a BatchNorm is exercised."""
    with torch.no_grad():
        bn.running_mean.copy_(torch.randn(bn.num_features, generator=gen) * 0.1)
        bn.running_var.copy_(torch.rand(bn.num_features, generator=gen) + 0.5)
        bn.weight.copy_(torch.rand(bn.num_features, generator=gen) + 0.5)
        bn.bias.copy_(torch.randn(bn.num_features, generator=gen) * 0.1)


# --- the blocks ------------------------------------------------------------------------------------------------

class SqueezeExcite(nn.Module):
    def __init__(self, s):
        super().__init__()
        c, r = s["c"], s["r"]
        self.fc1, self.fc2 = nn.Conv2d(c, r, 1), nn.Conv2d(r, c, 1)
        self.gate = nn.Hardsigmoid() if s["hard"] else nn.Sigmoid()

    def forward(self, x):
        return x * self.gate(self.fc2(torch.relu(self.fc1(F.adaptive_avg_pool2d(x, 1)))))


class Residual(nn.Module):
    def __init__(self, s):
        super().__init__()
        c = s["c"]
        self.conv1, self.bn1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(y)) + x)


class InvertedBottleneck(nn.Module):
    def __init__(self, s):
        super().__init__()
        c, e, k = s["c"], s["c"] * s["expand"], s["k"]
        self.expand, self.bn1 = nn.Conv2d(c, e, 1, bias=False), nn.BatchNorm2d(e)
        self.dw, self.bn2 = nn.Conv2d(e, e, k, stride=s["stride"], padding=k // 2, groups=e, bias=False), \
            nn.BatchNorm2d(e)
        self.project, self.bn3 = nn.Conv2d(e, c, 1, bias=False), nn.BatchNorm2d(c)
        self.skip = s["stride"] == 1

    def forward(self, x):
        y = F.relu6(self.bn1(self.expand(x)))
        y = F.relu6(self.bn2(self.dw(y)))
        y = self.bn3(self.project(y))
        return y + x if self.skip else y


class GroupedConv(nn.Module):
    def __init__(self, s):
        super().__init__()
        g = s["groups"]
        self.conv = nn.Conv2d(s["cin"] * g, s["cout"] * g, s["k"], stride=s["stride"], padding=s["pad"],
                              dilation=s["dilation"], groups=g)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Attention(nn.Module):
    def __init__(self, s):
        super().__init__()
        d, self.heads = s["d"], s["heads"]
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        # the additive causal mask as a constant (what GPT-style models register; aten::triu has no opset-13 export)
        self.register_buffer("mask", torch.triu(torch.full((s["t"], s["t"]), -1e4), diagonal=1) if s["causal"]
                             else torch.zeros(s["t"], s["t"]))

    def forward(self, x):
        b, t, d = x.shape
        hd = d // self.heads

        def split(y):
            return y.reshape(b, t, self.heads, hd).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd) + self.mask
        y = torch.softmax(scores, dim=-1) @ v
        return self.o(y.transpose(1, 2).reshape(b, t, d))


class Embedding(nn.Module):
    """An embedding lookup with run-time indices (BERT's / GPT's word embedding: op_gather_rows reads the table's rows
    in place in DDR): the indices are the argmax of the input's rows, spread over the table, then a position table
    is added."""

    def __init__(self, s):
        super().__init__()
        self.spread = s["vocab"] // s["n"]
        self.emb = nn.Embedding(s["vocab"], s["d"])
        self.pos = nn.Parameter(torch.randn(s["t"], s["d"]))

    def forward(self, x):
        return self.emb(x.argmax(-1) * self.spread) + self.pos


class LayerNormBlock(nn.Module):
    """nn.LayerNorm (opset 17: LayerNormalization; 13/14: the exporter decomposes it) or written out by hand."""

    def __init__(self, s):
        super().__init__()
        self.norm = nn.LayerNorm(s["d"])
        self.by_hand = s["by_hand"]
        self.fc = nn.Linear(s["d"], s["d"])

    def forward(self, x):
        if self.by_hand:
            mean = x.mean(-1, keepdim=True)
            var = ((x - mean) ** 2).mean(-1, keepdim=True)
            y = (x - mean) / torch.sqrt(var + 1e-5) * self.norm.weight + self.norm.bias
        else:
            y = self.norm(x)
        return F.gelu(self.fc(y))


class ConcatSplit(nn.Module):
    def __init__(self, s):
        super().__init__()
        c = s["c"]
        self.a, self.b = nn.Conv2d(c, s["ca"], 1), nn.Conv2d(c, s["cb"], 3, padding=1)
        self.split = s["ca"]

    def forward(self, x):
        y = torch.cat([torch.relu(self.a(x)), torch.relu(self.b(x))], dim=1)
        p, q = torch.split(y, [self.split, y.shape[1] - self.split], dim=1)
        return torch.cat([q, p * 2.0], dim=1)


class PadPool(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.pads, self.k, self.max = s["pads"], s["k"], s["max"]
        self.conv = nn.Conv2d(s["c"], s["c"], 1)

    def forward(self, x):
        y = F.pad(torch.relu(self.conv(x)), self.pads)
        return F.max_pool2d(y, self.k, stride=self.k) if self.max else F.avg_pool2d(y, self.k, stride=self.k)


class Permute(nn.Module):
    """ConvNeXt's channels-last detour: permute, (LayerNorm,) Linear over the channels, permute back; with "pool",
    after a global average pool (its LayerNorm2d head: a 1x1 map that a conv-family op wrote channel-last)."""

    def __init__(self, s):
        super().__init__()
        self.norm = nn.LayerNorm(s["c"]) if s.get("norm") else nn.Identity()
        self.fc = nn.Linear(s["c"], s["c2"])
        self.pool = s.get("pool", False)

    def forward(self, x):
        if self.pool:
            x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(self.norm(x.permute(0, 2, 3, 1))).permute(0, 3, 1, 2)


class PixelShuffle(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.r, self.manual = s["r"], s["manual"]
        self.conv = nn.Conv2d(s["c"], s["c"] * s["r"] * s["r"], 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        if not self.manual:
            return F.pixel_shuffle(y, self.r)
        b, c, h, w = y.shape
        r = self.r
        y = y.reshape(b, c // (r * r), r, r, h, w).permute(0, 1, 4, 2, 5, 3)
        return y.reshape(b, c // (r * r), h * r, w * r)


class Upsample(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.conv = nn.Conv2d(s["c"], s["c"], 1)

    def forward(self, x):
        return self.conv(F.interpolate(x, scale_factor=2, mode="nearest"))


class GemmHead(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.fc = nn.Linear(s["c"], s["classes"])

    def forward(self, x):
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class Reduce(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.dims, self.keep, self.how = tuple(s["dims"]), s["keep"], s["how"]

    def forward(self, x):
        if self.how == "mean":
            return x.mean(self.dims, keepdim=self.keep)
        if self.how == "sum":
            return x.sum(self.dims, keepdim=self.keep)
        return torch.amax(x, self.dims, keepdim=self.keep)


# kind -> (module class, function drawing its spec from rng, input shape of a spec)
def _spatial(rng):
    return rng.choice(SIZES), rng.choice(SIZES)


def _se(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 2), "r": rng.choice((1, 2, 4, 8)), "hard": rng.random() < 0.5, "h": h, "w": w}


def _res(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 32), "h": h, "w": w}


def _ib(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 24), "expand": rng.choice((1, 2, 4, 6)), "k": rng.choice((3, 5)),
            "stride": rng.choice((1, 1, 2)), "h": h, "w": w}


def _grouped(rng):
    k = rng.choice((1, 3, 5))
    d = rng.choice((1, 1, 2))
    h, w = (max(v, (k - 1) * d + 1) for v in _spatial(rng))
    return {"cin": rng.choice((1, 2, 3, 8)), "cout": rng.choice((1, 2, 4, 5)), "groups": rng.choice((1, 2, 3, 4)),
            "k": k, "stride": rng.choice((1, 2)), "pad": rng.choice((0, k // 2)), "dilation": d, "h": h, "w": w}


def _attention(rng):
    heads = rng.choice((1, 2, 3, 4))
    return {"heads": heads, "d": heads * rng.choice((4, 8, 16)), "t": rng.choice((1, 3, 7, 16, 33)),
            "causal": rng.random() < 0.5}


def _embedding(rng):
    vocab = rng.choice((1, 5, 50, 300, 2000))
    return {"vocab": vocab, "n": min(vocab, rng.choice((1, 2, 5, 16))), "d": rng.choice((1, 4, 16, 48, 96)),
            "t": rng.choice((1, 3, 7, 16, 33))}


def _layernorm(rng):
    return {"d": rng.choice((5, 16, 31, 64)), "t": rng.choice((1, 4, 9)), "by_hand": rng.random() < 0.5}


def _concat(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 24), "ca": rng.choice((1, 3, 8)), "cb": rng.choice((2, 5, 16)), "h": h, "w": w}


def _padpool(rng):
    k = rng.choice((2, 3))
    h, w = (max(v, k) for v in _spatial(rng))
    return {"c": _channels(rng, 1, 24), "k": k, "max": rng.random() < 0.5,
            "pads": [rng.choice((0, 1)) for _ in range(4)], "h": h, "w": w}


def _permute(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 48), "c2": _channels(rng, 1, 48), "norm": rng.random() < 0.5,
            "pool": rng.random() < 0.3, "h": h, "w": w}


def _pixel(rng):
    h, w = _spatial(rng)
    return {"c": rng.choice((1, 2, 3, 5)), "r": rng.choice((2, 3)), "manual": rng.random() < 0.5, "h": h, "w": w}


def _upsample(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 16), "h": h, "w": w}


def _head(rng):
    h, w = _spatial(rng)
    return {"c": _channels(rng, 1, 48), "classes": rng.choice((1, 5, 10, 17)), "h": h, "w": w}


def _reduce(rng):
    dims = sorted(rng.sample(range(1, 4), rng.choice((1, 2, 3))))
    h, w = _spatial(rng)
    return {"dims": dims, "keep": rng.random() < 0.5, "how": rng.choice(("mean", "sum", "max")),
            "c": _channels(rng), "h": h, "w": w}


def _nchw(s):
    return [1, s["c"], s["h"], s["w"]]


KINDS = {
    "se": (SqueezeExcite, _se, _nchw),
    "residual": (Residual, _res, _nchw),
    "inverted_bottleneck": (InvertedBottleneck, _ib, _nchw),
    "grouped_conv": (GroupedConv, _grouped, lambda s: [1, s["cin"] * s["groups"], s["h"], s["w"]]),
    "attention": (Attention, _attention, lambda s: [1, s["t"], s["d"]]),
    "layernorm": (LayerNormBlock, _layernorm, lambda s: [1, s["t"], s["d"]]),
    "embedding": (Embedding, _embedding, lambda s: [1, s["t"], s["n"]]),
    "concat_split": (ConcatSplit, _concat, _nchw),
    "pad_pool": (PadPool, _padpool, _nchw),
    "permute": (Permute, _permute, _nchw),
    "pixel_shuffle": (PixelShuffle, _pixel, _nchw),
    "upsample": (Upsample, _upsample, _nchw),
    "gemm_head": (GemmHead, _head, _nchw),
    "reduce": (Reduce, _reduce, _nchw),
}


def random_spec(rng):
    kind = rng.choice(sorted(KINDS))
    spec = KINDS[kind][1](rng)
    spec["kind"] = kind
    spec["seed"] = rng.randrange(1 << 30)
    return spec


def make_block(spec):
    """(module in eval mode, input tensor) of a spec; weights and input from the spec's seed."""
    cls, _, shape = KINDS[spec["kind"]]
    torch.manual_seed(spec["seed"])
    gen = torch.Generator().manual_seed(spec["seed"])
    module = cls(spec)
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            _randomise_bn(m, gen)
    module.eval()
    return module, torch.randn(*shape(spec), generator=gen)
