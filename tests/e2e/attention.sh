#!/usr/bin/env bash
# attention.sh TX8_AOT WORK_DIR
# tx8be-fuse-attention on real exports (issue 34, item 2): the attention blocks of make_attention_models.py
# (torch.onnx.export of MultiheadAttention, a BERT self-attention with an additive mask, GPT blocks with a causal
# mask from a constant buffer and from torch.tril; opsets 14 and 17) and make_exporter_models.py's ViT/BERT-style
# ones each compile to a bundle with exactly one Attention group and no Softmax or batched MatMul of scores left,
# and match their expected outputs on the cmodel in fp32 and with --precision bf16 (test-onnx's bf16 rule).
set -euo pipefail
aot=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
torch_models=$(/usr/bin/python3 "$here/make_attention_models.py" "$work/models")
/usr/bin/python3 "$here/make_exporter_models.py" "$work/exporter" >/dev/null
models=""
for m in $torch_models; do models="$models $work/models/$m"; done
for m in attention_1x12_heads attention_2x3_heads_s7_d5; do models="$models $work/exporter/$m"; done
for m in $models; do
  for p in fp32 bf16; do
    b="$work/bundle-$(basename "$m")-$p"
    "$aot" test-onnx "$m" --target cmodel --precision $p --keep-bundle "$b"
    /usr/bin/python3 - "$b/manifest.json" <<'PY'
import json, sys
ops = [g.get("op", "") for g in json.load(open(sys.argv[1]))["groups"]]
assert sum(o.split("+")[0] == "Attention" for o in ops) == 1, ops  # bf16: "Attention+Cast" (stored in bf16)
assert not any("Softmax" in o for o in ops), ops
PY
  done
done
