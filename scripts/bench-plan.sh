#!/usr/bin/env bash
# bench-plan.sh [--aot PATH] [--out DIR] [--quick] [--only gemm,conv,chain,resnet,transformer,compile]
# The planner's benchmark table (issue 17): each model compiled with tx8-aot (--tiles 16, --profile), run on the
# cmodel, and its simulated cycles against the modelled roofline of the whole chip,
#   roofline = max(MACs / (16 tiles x NE MAC/cycle of the format), DDR bytes / DDR bytes per cycle),
# where DDR bytes are the model's inputs, weights (as stored) and outputs, each moved once. Also the estimate
# of each group (manifest "groups") against its simulated cycles ("tx8: group G cycles C"), and the compile time
# and peak RSS of ResNet-50. --quick uses small shapes (a smoke test of the script, not the targets).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
aot=$here/build/bin/tx8-aot out=/tmp/tx8-bench-plan quick=0 only=gemm,conv,chain,resnet,transformer,compile
while [ $# -gt 0 ]; do
  case $1 in
    --aot) aot=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --only) only=$2; shift 2 ;;
    *) echo "usage: $0 [--aot PATH] [--out DIR] [--quick] [--only gemm,conv,chain,resnet,transformer,compile]" >&2
       exit 2 ;;
  esac
done
mkdir -p "$out"
make=$here/models/make_bench_models.py
want() { [[ ",$only," == *",$1,"* ]]; }
log=$out/estimates.tsv
: > "$log"
: > "$log.ratios"

# run NAME DIR PRECISION MACS DDR_BYTES [compile options...]: compile, run, print a table row, record estimates.
run() {
  local name=$1 dir=$2 prec=$3 macs=$4 bytes=$5
  shift 5
  "$aot" compile "$dir/model.onnx" -o "$out/b-$name" --tiles 16 --precision "$prec" --profile "$@" >/dev/null
  "$aot" run "$out/b-$name" --target cmodel --inputs-dir "$dir/test_data_set_0" --out "$out/o-$name" \
    > "$out/$name.log" 2>&1
  /usr/bin/python3 - "$name" "$prec" "$macs" "$bytes" "$out/$name.log" "$out/b-$name/manifest.json" "$log" <<'PY'
import json, re, sys
name, prec, macs, ddr, logf, manifest, est = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:]
text = open(logf).read()
cycles = int(re.search(r"(\d+) simulated cycles", text).group(1))
hw = json.load(open(manifest))["hardware"]
rate = hw["ne_macs_per_cycle_" + prec] * 16
roof = max(macs / rate, ddr / hw["ddr_bytes_per_cycle"])
print("| %s | %s | %d | %.0f | %.3f |" % (name, prec, cycles, roof, roof / cycles))
with open(est + ".ratios", "a") as f:
    f.write("%s\t%.6f\n" % (name, roof / cycles))
sim = {int(g): int(c) for g, c in re.findall(r"tx8: group (\d+) cycles (\d+)", text)}
with open(est, "a") as f:
    for g in json.load(open(manifest))["groups"]:
        if g.get("estimate_cycles") and g["group"] in sim:
            f.write("%s\t%d\t%s\t%d\t%d\n" % (name, g["group"], g["op"], g["estimate_cycles"], sim[g["group"]]))
PY
}

echo "| model | precision | simulated cycles | roofline cycles | ratio |"
echo "| --- | --- | ---: | ---: | ---: |"
if want gemm; then
  n=4096; [ $quick = 1 ] && n=512
  /usr/bin/python3 "$make" "$out/gemm" matmul $n $n $n --no-expected
  # A in fp32 (an input, cast to bf16 on the device), B stored bf16, Y fp32.
  run gemm$n "$out/gemm" bf16 $((n * n * n)) $((n * n * 4 + n * n * 2 + n * n * 4))
  # A bf16 model: A, B and Y bf16 (no Cast group; the MatMul's fp32 sum is cast to bf16 in SPM, fused).
  /usr/bin/python3 "$make" "$out/gemm-bf16" matmul-bf16 $n $n $n --no-expected
  run gemm$n-bf16model "$out/gemm-bf16" bf16 $((n * n * n)) $((n * n * 2 * 3))
fi
if want conv; then
  # Every distinct conv of ResNet-50 v1 at 224x224, batch 1: C H W O K stride pad.
  shapes="3,224,224,64,7,2,3 64,56,56,64,1,1,0 64,56,56,64,3,1,1 64,56,56,256,1,1,0 256,56,56,64,1,1,0
          256,56,56,128,1,2,0 128,28,28,128,3,1,1 128,28,28,512,1,1,0 256,56,56,512,1,2,0 512,28,28,128,1,1,0
          512,28,28,256,1,2,0 256,14,14,256,3,1,1 256,14,14,1024,1,1,0 512,28,28,1024,1,2,0 1024,14,14,256,1,1,0
          1024,14,14,512,1,2,0 512,7,7,512,3,1,1 512,7,7,2048,1,1,0 1024,14,14,2048,1,2,0 2048,7,7,512,1,1,0"
  [ $quick = 1 ] && shapes="64,28,28,64,3,1,1 256,14,14,64,1,1,0"
  for s in $shapes; do
    IFS=, read -r c h w o k st p <<< "$s"
    d=$out/conv-$c-$h-$o-$k-$st
    /usr/bin/python3 "$make" "$d" conv 1 "$c" "$h" "$w" "$o" "$k" "$k" "$st" "$p" --no-expected
    oh=$(((h + 2 * p - k) / st + 1)) ow=$(((w + 2 * p - k) / st + 1))
    run "conv-c$c-$h-o$o-k$k-s$st" "$d" bf16 $((oh * ow * o * c * k * k)) \
      $((c * h * w * 4 + o * c * k * k * 2 + o * oh * ow * 4))
  done
fi
if want chain; then
  e=$((16 * 1024 * 1024)); [ $quick = 1 ] && e=$((256 * 1024))
  /usr/bin/python3 "$make" "$out/chain" chain $e 8 --no-expected
  run chain8 "$out/chain" fp32 0 $((e * 4 * 2))
  run chain8-unfused "$out/chain" fp32 0 $((e * 4 * 2)) --fuse=false
  /usr/bin/python3 - "$out/chain8.log" "$out/chain8-unfused.log" <<'PY'
import re, sys
fused, unfused = (int(re.search(r"(\d+) simulated cycles", open(f).read()).group(1)) for f in sys.argv[1:])
print("chain8: fused %d cycles, one group per op %d: %.2fx faster fused" % (fused, unfused, unfused / fused))
PY
fi
if want resnet; then
  size=full; [ $quick = 1 ] && size=small
  /usr/bin/python3 "$here/models/make_zoo.py" "$out/zoo" --models resnet50 --size $size --no-expected >/dev/null
  macs=$(/usr/bin/python3 "$here/models/zoo_numpy.py" stats "$out/zoo/resnet50/model.onnx" | sed -n 's/.*macs \([0-9]*\).*/\1/p')
  params=$(/usr/bin/python3 "$here/models/zoo_numpy.py" stats "$out/zoo/resnet50/model.onnx" | sed -n 's/.*params \([0-9]*\).*/\1/p')
  for p in bf16 fp32; do
    wb=4; [ $p = bf16 ] && wb=2
    run "resnet50-$size" "$out/zoo/resnet50" $p "${macs:-0}" $(((${params:-0}) * wb))
  done
fi
# The transformers of issue 34 as PyTorch exports them (models/make_torch_zoo.py: ViT-B/16 224x224, BERT-base and
# GPT-2-small over 128 tokens; --quick: their small sizes), batch 1, bf16; the roofline's terms from the ONNX file
# (scripts/model_roofline.py: MatMul/Gemm/Conv MACs, weights in bf16 once, an embedding's gathered rows only).
# Skipped when PyTorch cannot be imported.
if want transformer && /usr/bin/python3 -c 'import torch, torchvision' 2>/dev/null; then
  size=full; [ $quick = 1 ] && size=small
  /usr/bin/python3 "$here/models/make_torch_zoo.py" "$out/torchzoo" --size $size --models vit_b_16,bert,gpt >/dev/null
  for m in vit_b_16 bert gpt; do
    terms=$(/usr/bin/python3 "$here/scripts/model_roofline.py" "$out/torchzoo/$m/model.onnx")
    macs=${terms#macs=}; macs=${macs%% *}; bytes=${terms##*ddr_bytes=}
    run "$m-$size" "$out/torchzoo/$m" bf16 "$macs" "$bytes"
  done
fi
if want compile && [ -f "$out/zoo/resnet50/model.onnx" ]; then
  for s in 1 0; do
    /usr/bin/time -f "%e %M" -o "$out/time-$s" "$aot" compile "$out/zoo/resnet50/model.onnx" -o "$out/c-$s" \
      --tiles 16 --precision bf16 --opt-search $s >/dev/null
    read -r secs kb < "$out/time-$s"
    echo "compile resnet50 --opt-search $s: $secs s, peak RSS $((kb / 1024)) MiB"
  done
fi
/usr/bin/python3 - "$log" <<'PY'
import sys
conv = [float(r) for n, r in (l.split("\t") for l in open(sys.argv[1] + ".ratios") if l.strip()) if n.startswith("conv")]
if conv:
    print("conv layers: %d shapes, mean ratio %.3f, min %.3f" % (len(conv), sum(conv) / len(conv), min(conv)))
rows = [l.split("\t") for l in open(sys.argv[1]) if l.strip()]
if rows:
    errs = sorted(abs(int(e) - int(s)) / max(int(s), 1) for _, _, _, e, s in rows)
    within = sum(1 for x in errs if x <= 0.10)
    print("estimate vs simulated, %d groups: %d (%.0f %%) within 10 %%; error quantiles 50 %% %.3f, 90 %% %.3f, max %.3f"
          % (len(errs), within, 100.0 * within / len(errs), errs[len(errs) // 2], errs[int(len(errs) * 0.9)], errs[-1]))
PY
