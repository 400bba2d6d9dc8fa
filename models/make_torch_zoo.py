#!/usr/bin/python3
"""The torch zoo: real PyTorch exports (issue 33). torchvision architectures and two transformers written with
torch.nn, random weights seeded per model, exported with PyTorch's own torch.onnx.export and written as ONNX
backend test directories (OUT/<name>/model.onnx, OUT/<name>/test_data_set_0/input_<k>.pb and output_<k>.pb, the
output PyTorch itself computes in float32).

Usage: make_torch_zoo.py OUT [--models NAME|PATTERN,...] [--size small|full] [--list] [--info]

  --models   variant names or shell patterns ('resnet*'); default: every variant
  --size     small (default, for ctest): small images (64x64 for most CNNs, 96x96 for inception_v3), the
             transformers (ViT, Swin, MaxViT, BERT, GPT) with fewer layers and a smaller width;
             full: the published configurations and input sizes (224x224, 299x299 for inception_v3, BERT-base and
             GPT-2 small at 128 tokens)
  --list     print the variant names (after --models) and write nothing
  --info     print name, opset, inputs, parameters and ONNX node count of each selected variant (exports in memory)
Prints the names it wrote, one per line; exits 77 when torch or torchvision cannot be imported. Needs Debian's python3-torch and python3-torchvision (no downloads:
every model is built with weights=None).

Weights: torch.manual_seed(crc32(name)) before the model is built, so the module's own initialisation draws them;
then every BatchNorm gets random statistics (running_mean ~ N(0, 0.1), running_var ~ U(0.5, 1.5), weight
~ 1 + N(0, 0.1), bias ~ N(0, 0.1)), ConvNeXt's layer scales (1e-6 at init, which would hide every block) are
drawn from U(0.1, 0.5), a Linear initialised to zero (ViT's head) gets PyTorch's default initialisation, and the
model is put in eval(). Inputs: N(0, 1) images, token ids uniform, seeded from the name too. Variants of one model share its weights and input, so they compute the same function:
  -op13 / -op14 / -op17   another opset than the model's default
  -symbatch      dynamic_axes: the batch extent of inputs and outputs is the symbol 'batch'
  -bn            exported with training=TrainingMode.PRESERVE (the model in eval mode): the exporter then does not
                 fold BatchNormalization into the convs (its eval peephole), so the compiler's folding runs
Small-size changes to CNN heads: alexnet and vgg11 pool their (1x1 / 2x2) features globally into a first Linear
of 256 / 512 inputs (torchvision's AdaptiveAvgPool2d((6, 6)) / ((7, 7)) cannot be exported from those sizes).

Deterministic: the same bytes on every run (one intra-op thread; torch.onnx.export writes no doc strings).
"""
import os

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse  # noqa: E402
import fnmatch  # noqa: E402
import io  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
try:
    import torch  # noqa: E402
    from torch import nn  # noqa: E402
    import torchvision  # noqa: E402
    from torchvision import models as tvm  # noqa: E402
except ImportError as e:  # exit 77: ctest's "skipped"
    print("SKIP: PyTorch / torchvision not importable by %s (python3-torch, python3-torchvision): %s"
          % (sys.executable, e))
    sys.exit(77)

torch.set_num_threads(1)
warnings.filterwarnings("ignore")


# ---- transformers written with torch.nn
class BertSelfAttention(nn.Module):
    """HuggingFace BertSelfAttention's computation: per-head Q/K/V, scaled scores plus the additive mask, softmax."""

    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.dh = heads, hidden // heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden,
                                                                                                          hidden)

    def split(self, x):
        return x.view(x.size(0), x.size(1), self.heads, self.dh).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh) + mask
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size(0), ctx.size(1), self.heads * self.dh)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, ffn)
        self.gelu = nn.GELU()
        self.output = nn.Linear(ffn, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, mask):
        x = self.attention_norm(x + self.dropout(self.attention_output(self.attention(x, mask))))
        return self.output_norm(x + self.dropout(self.output(self.gelu(self.intermediate(x)))))


class Bert(nn.Module):
    """A BERT-style encoder: word + position + token-type embeddings (nn.Embedding), LayerNorm, post-LN layers with
    hand-written attention and the padding mask of the attention_mask input, Erf GELU, a tanh pooler."""

    def __init__(self, vocab, hidden, heads, ffn, layers, max_pos):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.position = nn.Embedding(max_pos, hidden)
        self.token_type = nn.Embedding(2, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)
        self.layers = nn.ModuleList([BertLayer(hidden, heads, ffn) for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)

    def forward(self, input_ids, attention_mask):
        seq = input_ids.size(1)
        pos = torch.arange(seq, dtype=torch.long).unsqueeze(0)
        x = self.word(input_ids) + self.position(pos) + self.token_type(torch.zeros_like(input_ids))
        x = self.dropout(self.norm(x))
        mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return x, torch.tanh(self.pooler(x[:, 0]))


class GptBlock(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(hidden)
        self.attn = nn.MultiheadAttention(hidden, heads, dropout=0.1, batch_first=True)
        self.ln_2 = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * hidden, hidden), nn.Dropout(0.1))

    def forward(self, x, causal):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


class Gpt(nn.Module):
    """A GPT-2-style decoder: token + learned position embeddings, pre-LN blocks of nn.MultiheadAttention under the
    causal mask (nn.Transformer.generate_square_subsequent_mask: -inf above the diagonal), tanh GELU MLP, a final
    LayerNorm and the logits through the token embedding's (tied) weight."""

    def __init__(self, vocab, hidden, heads, layers, max_pos):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_pos, hidden)
        self.blocks = nn.ModuleList([GptBlock(hidden, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, input_ids):
        seq = input_ids.size(1)
        causal = nn.Transformer.generate_square_subsequent_mask(seq)
        x = self.wte(input_ids) + self.wpe(torch.arange(seq, dtype=torch.long).unsqueeze(0))
        for block in self.blocks:
            x = block(x, causal)
        return self.lm_head(self.ln_f(x))


class FirstOutput(nn.Module):
    """torchvision's segmentation models return {'out': ...}: export the tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


# ---- the models: name -> (builder(small) -> (module, [(input name, tensor)], [output names]), default opset)
def tv(fn, **kw):
    def build(small):
        return fn(weights=None, **kw)
    return build


def alexnet(small):
    m = tvm.alexnet(weights=None)
    if small:  # 64x64 leaves 1x1 features: pool them globally into a 256-input first Linear
        m.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        m.classifier[1] = nn.Linear(256, 4096)
    return m


def vgg11(small):
    m = tvm.vgg11(weights=None)
    if small:  # 64x64 leaves 2x2 features
        m.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        m.classifier[0] = nn.Linear(512, 4096)
    return m


def vit(small):
    if not small:
        return tvm.vit_b_16(weights=None)
    return tvm.VisionTransformer(image_size=64, patch_size=16, num_layers=3, num_heads=4, hidden_dim=128,
                                 mlp_dim=512)


def swin(small):
    if not small:
        return tvm.swin_t(weights=None)
    # 64x64: stages of 16, 8, 4, 2 patches, windows of 4 (the last stage padded to one window, as at 224 none is)
    return tvm.SwinTransformer(patch_size=[4, 4], embed_dim=48, depths=[2, 2, 2, 2], num_heads=[2, 4, 8, 16],
                               window_size=[4, 4], stochastic_depth_prob=0.2)


def maxvit(small):
    if not small:
        return tvm.maxvit_t(weights=None)
    # 64x64: stem 32, blocks 16, 8, 4, 2; partitions of 2 divide every one
    return tvm.MaxVit(input_size=(64, 64), stem_channels=32, partition_size=2, block_channels=[32, 64, 128, 256],
                      block_layers=[1, 1, 1, 1], head_dim=16, stochastic_depth_prob=0.2)


def fcn_resnet18(small):
    from torchvision.models._utils import IntermediateLayerGetter
    from torchvision.models.segmentation.fcn import FCN, FCNHead
    backbone = IntermediateLayerGetter(tvm.resnet18(weights=None), {"layer4": "out"})
    model = FCN(backbone, FCNHead(512, 21))
    return FirstOutput(model)


def segmentation(fn):
    def build(small):
        return FirstOutput(fn(weights=None, weights_backbone=None, num_classes=21, aux_loss=False))
    return build


def bert(small):
    if small:
        return Bert(vocab=1024, hidden=128, heads=4, ffn=512, layers=2, max_pos=64), 32, 1024
    return Bert(vocab=30522, hidden=768, heads=12, ffn=3072, layers=12, max_pos=512), 128, 30522


def gpt(small):
    if small:
        return Gpt(vocab=1024, hidden=128, heads=4, layers=2, max_pos=64), 32, 1024
    return Gpt(vocab=50257, hidden=768, heads=12, layers=12, max_pos=1024), 128, 50257


# name -> (builder, default opset, image size (small, full) or "bert"/"gpt")
MODELS = {
    "alexnet": (alexnet, 13, (64, 224)),
    "vgg11": (vgg11, 14, (64, 224)),
    "resnet18": (tv(tvm.resnet18), 17, (64, 224)),
    "resnet50": (tv(tvm.resnet50), 13, (64, 224)),
    "squeezenet1_1": (tv(tvm.squeezenet1_1), 17, (64, 224)),
    "mobilenet_v2": (tv(tvm.mobilenet_v2), 13, (64, 224)),
    "mobilenet_v3_small": (tv(tvm.mobilenet_v3_small), 17, (64, 224)),
    "mobilenet_v3_large": (tv(tvm.mobilenet_v3_large), 13, (64, 224)),
    "efficientnet_b0": (tv(tvm.efficientnet_b0), 14, (64, 224)),
    "regnet_x_400mf": (tv(tvm.regnet_x_400mf), 17, (64, 224)),
    "regnet_y_400mf": (tv(tvm.regnet_y_400mf), 13, (64, 224)),
    "mnasnet1_0": (tv(tvm.mnasnet1_0), 14, (64, 224)),
    "shufflenet_v2_x1_0": (tv(tvm.shufflenet_v2_x1_0), 13, (64, 224)),
    "densenet121": (tv(tvm.densenet121), 13, (64, 224)),
    "googlenet": (tv(tvm.googlenet, aux_logits=False, init_weights=False), 14, (64, 224)),
    "inception_v3": (tv(tvm.inception_v3, aux_logits=False, init_weights=False), 17, (96, 299)),
    "convnext_tiny": (tv(tvm.convnext_tiny), 17, (64, 224)),
    "vit_b_16": (vit, 14, (64, 224)),
    "swin_t": (swin, 17, (64, 224)),
    "maxvit_t": (maxvit, 17, (64, 224)),
    "fcn_resnet18": (fcn_resnet18, 14, (64, 224)),
    "lraspp_mobilenet_v3_large": (segmentation(tvm.segmentation.lraspp_mobilenet_v3_large), 13, (64, 224)),
    "deeplabv3_mobilenet_v3_large": (segmentation(tvm.segmentation.deeplabv3_mobilenet_v3_large), 17, (64, 224)),
    "bert": (bert, 17, "bert"),
    "gpt": (gpt, 14, "gpt"),
}

# variant name -> (model, options); options: opset, symbatch, keep_bn
VARIANTS = {m: (m, {}) for m in MODELS}
VARIANTS.update({
    "resnet18-op13": ("resnet18", {"opset": 13}),
    "resnet18-symbatch": ("resnet18", {"opset": 14, "symbatch": True}),
    "resnet18-bn": ("resnet18", {"opset": 14, "keep_bn": True}),
    "mobilenet_v2-bn": ("mobilenet_v2", {"opset": 17, "keep_bn": True}),
    "squeezenet1_1-symbatch": ("squeezenet1_1", {"opset": 13, "symbatch": True}),
    "shufflenet_v2_x1_0-op17": ("shufflenet_v2_x1_0", {"opset": 17}),
    "convnext_tiny-op13": ("convnext_tiny", {"opset": 13}),
    "vit_b_16-op17": ("vit_b_16", {"opset": 17}),
    "bert-op13": ("bert", {"opset": 13}),
    "bert-symbatch": ("bert", {"opset": 14, "symbatch": True}),
    "gpt-op17": ("gpt", {"opset": 17}),
})


def randomise(model, seed):
    """BatchNorm statistics and affine parameters, and ConvNeXt's layer scales, drawn (see the module doc)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for mod in model.modules():
            if isinstance(mod, nn.modules.batchnorm._BatchNorm):
                c = mod.num_features
                mod.running_mean.copy_(0.1 * torch.randn(c, generator=g))
                mod.running_var.copy_(0.5 + torch.rand(c, generator=g))
                if mod.affine:
                    mod.weight.copy_(1.0 + 0.1 * torch.randn(c, generator=g))
                    mod.bias.copy_(0.1 * torch.randn(c, generator=g))
            if isinstance(mod, nn.Linear) and not mod.weight.any():
                mod.reset_parameters()  # ViT's head starts at zero: the output would be its bias, 0
        for name, p in model.named_parameters():
            if name.endswith("layer_scale"):
                p.copy_(0.1 + 0.4 * torch.rand(p.shape, generator=g))


def build(variant, small):
    """Returns (module in eval mode, [(input name, tensor)], [output names], opset, options)."""
    model, opts = VARIANTS[variant]
    fn, default_opset, kind = MODELS[model]
    seed = zlib.crc32(model.encode())
    torch.manual_seed(seed)
    gin = torch.Generator().manual_seed(zlib.crc32((model + ".input").encode()))
    if kind in ("bert", "gpt"):
        module, seq, vocab = fn(small)
        ids = torch.randint(0, vocab, (1, seq), generator=gin, dtype=torch.long)
        if kind == "bert":
            mask = torch.ones(1, seq, dtype=torch.long)
            mask[:, seq - seq // 8:] = 0  # the last eighth is padding
            inputs = [("input_ids", ids), ("attention_mask", mask)]
            outputs = ["last_hidden_state", "pooler_output"]
        else:
            inputs, outputs = [("input_ids", ids)], ["logits"]
    else:
        module = fn(small)
        hw = kind[0] if small else kind[1]
        inputs, outputs = [("input", torch.randn(1, 3, hw, hw, generator=gin))], ["output"]
    randomise(module, seed + 1)
    module.eval()
    return module, inputs, outputs, opts.get("opset", default_opset), opts


def export(variant, small):
    """Returns (ModelProto, [(input name, np array)], [(output name, np array)])."""
    module, inputs, outputs, opset, opts = build(variant, small)
    args = tuple(t for _, t in inputs)
    with torch.no_grad():
        expected = module(*args)
    if isinstance(expected, torch.Tensor):
        expected = (expected,)
    dynamic = None
    if opts.get("symbatch"):
        dynamic = {n: {0: "batch"} for n in [n for n, _ in inputs] + outputs}
    training = torch.onnx.TrainingMode.PRESERVE if opts.get("keep_bn") else torch.onnx.TrainingMode.EVAL
    buf = io.BytesIO()
    # not under no_grad: the parameters requiring grad keep nn.MultiheadAttention off its fast path
    # (aten::_native_multi_head_attention, which has no ONNX symbolic), as in a plain user's export
    torch.onnx.export(module, args, buf, opset_version=opset, input_names=[n for n, _ in inputs],
                      output_names=outputs, dynamic_axes=dynamic, training=training, do_constant_folding=True)
    proto = onnx.load_from_string(buf.getvalue())
    proto.graph.name = variant.replace("-", "_")
    return (proto, [(n, t.numpy()) for n, t in inputs],
            [(n, t.detach().numpy().astype(np.float32)) for n, t in zip(outputs, expected)])


def write(out, variant, small):
    proto, inputs, outputs = export(variant, small)
    d = os.path.join(out, variant)
    data = os.path.join(d, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for f in os.listdir(data):  # no stale tensors of an earlier run
        os.remove(os.path.join(data, f))
    with open(os.path.join(d, "model.onnx"), "wb") as fh:
        fh.write(proto.SerializeToString())
    for kind, tensors in (("input", inputs), ("output", outputs)):
        for k, (n, v) in enumerate(tensors):
            with open(os.path.join(data, "%s_%d.pb" % (kind, k)), "wb") as fh:
                fh.write(numpy_helper.from_array(np.ascontiguousarray(v), n).SerializeToString())
    return proto


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--models", default="*")
    ap.add_argument("--size", choices=("full", "small"), default="small")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--info", action="store_true")
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
        print("%-30s %5s %-28s %12s %6s" % ("name", "opset", "inputs", "params", "nodes"))
        for v in chosen:
            proto, inputs, _ = export(v, small)
            params = sum(int(np.prod(t.dims)) for t in proto.graph.initializer)
            shapes = ",".join("x".join(map(str, x.shape)) for _, x in inputs)
            print("%-30s %5d %-28s %12d %6d" % (v, proto.opset_import[0].version, shapes, params,
                                                 len(proto.graph.node)))
        return 0
    if not a.out:
        ap.error("OUT is required")
    for v in chosen:
        write(a.out, v, small)
        print(v, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
