#!/usr/bin/env bash
# estimate.sh TX8_AOT MAKE_BENCH_MODELS WORK_DIR
# tx8be-group-cost's estimate (manifest "groups") against the simulated cycles of each group (--profile), for
# seeded random MatMuls, convs and elementwise chains on 16 and 1 tiles: at least 80 % of the groups within 15 %
# and none off by more than a factor 2 (scripts/bench-plan.sh reports the distribution on the benchmark models).
set -euo pipefail
aot=$1 make=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 - "$work/shapes" <<'PY'
import random, sys
r = random.Random(1717)
with open(sys.argv[1], "w") as f:
    for i in range(4):
        f.write("matmul %d %d %d\n" % (r.choice([64, 96, 256, 384]), r.choice([64, 128, 320]), r.choice([32, 128, 256])))
    for i in range(4):
        c, hw, o, k = r.choice([8, 16, 64]), r.choice([14, 28, 33]), r.choice([16, 32, 64]), r.choice([1, 3])
        f.write("conv 1 %d %d %d %d %d %d %d %d\n" % (c, hw, hw, o, k, k, r.choice([1, 2]), k // 2))
    for i in range(2):
        f.write("chain %d %d\n" % (r.choice([65536, 300000]), r.choice([2, 5])))
PY
: > "$work/pairs"
n=0
while read -r kind args; do
  n=$((n + 1))
  /usr/bin/python3 "$make" "$work/m$n" $kind $args --no-expected
  for t in 16 1; do
    "$aot" compile "$work/m$n/model.onnx" -o "$work/b$n-$t" --tiles $t --profile >/dev/null
    "$aot" run "$work/b$n-$t" --target cmodel --inputs-dir "$work/m$n/test_data_set_0" --out "$work/o$n-$t" \
      > "$work/r$n-$t.log"
    /usr/bin/python3 - "$work/b$n-$t/manifest.json" "$work/r$n-$t.log" "$kind $args ($t tiles)" >> "$work/pairs" <<'PY'
import json, re, sys
sim = {int(g): int(c) for g, c in re.findall(r"tx8: group (\d+) cycles (\d+)", open(sys.argv[2]).read())}
for g in json.load(open(sys.argv[1]))["groups"]:
    if g.get("estimate_cycles"):
        print("%d %d %s group %d %s" % (g["estimate_cycles"], sim[g["group"]], sys.argv[3], g["group"], g["op"]))
PY
  done
done < "$work/shapes"
/usr/bin/python3 - "$work/pairs" <<'PY'
import sys
rows = [l.split(None, 2) for l in open(sys.argv[1]) if l.strip()]
errs = []
for est, sim, what in rows:
    e, s = int(est), int(sim)
    err = abs(e - s) / s
    errs.append(err)
    print("%-60s estimate %8d simulated %8d  %+.1f %%" % (what.strip(), e, s, 100.0 * (e - s) / s))
    assert 0.5 <= e / s <= 2.0, "estimate off by more than a factor 2: " + what
within = sum(1 for x in errs if x <= 0.15)
print("%d groups, %d (%.0f %%) within 15 %%" % (len(errs), within, 100.0 * within / len(errs)))
assert within >= 0.8 * len(errs)
PY
