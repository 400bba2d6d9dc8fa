#!/usr/bin/env bash
# trace.sh TX8_AOT MAKE_SCRIPT TESTDATA_DIR WORK_DIR WITH_RISCV(0|1)
# `tx8-aot run --trace`: the demo CNN on 16 tiles (a run with barriers and DTE multicasts) and on one tile (no
# run), test-onnx --trace on a backend test and diff --trace; each trace checked by check_trace.py (structure, time order,
# every slice inside the run, per-engine busy time = the chip model's counters), QEMU's trace identical to the
# cmodel's, a --trace for the reference target a usage error.
set -euo pipefail
aot=$1 make=$2 data=$3 work=$4 riscv=$5
check="/usr/bin/python3 $(dirname "$0")/check_trace.py"
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
in="$work/model/test_data_set_0"
"$aot" compile "$work/model/model.onnx" -o "$work/b16" --quiet
"$aot" run "$work/b16" --inputs-dir "$in" --out "$work/o16" --trace "$work/t16.json" | tee "$work/run16.log"
grep -q "^trace: [0-9]* instructions on 16 tiles" "$work/run16.log"
$check "$work/t16.json" "$work/b16/manifest.json"
# The trace does not change the run: same outputs and cycles without it.
"$aot" run "$work/b16" --inputs-dir "$in" --out "$work/o16-plain" > "$work/plain.log"
cmp "$work/o16/probs.npy" "$work/o16-plain/probs.npy"
[ "$(grep 'simulated cycles' "$work/run16.log" | cut -d' ' -f2)" = "$(grep 'simulated cycles' "$work/plain.log" | cut -d' ' -f2)" ]
"$aot" compile "$work/model/model.onnx" -o "$work/b1" --tiles 1 --quiet
"$aot" run "$work/b1" --inputs-dir "$in" --out "$work/o1" --trace "$work/t1.json"
$check "$work/t1.json" "$work/b1/manifest.json"
"$aot" test-onnx "$data/pytorch-converted/test_Conv2d" --target cmodel --trace "$work/conv.json"
"$aot" test-onnx "$data/pytorch-converted/test_Conv2d" --target cmodel --keep-bundle "$work/conv" > /dev/null
$check "$work/conv.json" "$work/conv/manifest.json"
"$aot" diff "$work/model/model.onnx" --inputs-dir "$in" --atol 1e-5 --trace "$work/diff.json" > "$work/diff.log"
grep -q "^trace: [0-9]* instructions on 16 tiles" "$work/diff.log"
/usr/bin/python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["otherData"]["format"] == "tx8-trace"' \
  "$work/diff.json"
if "$aot" test-onnx "$data/pytorch-converted/test_Conv2d" --trace "$work/ref.json" 2> "$work/ref.err"; then
  echo "--trace with the reference target was accepted"; exit 1
fi
grep -q "trace is for the device targets" "$work/ref.err"
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/b16" --target riscv --inputs-dir "$in" --out "$work/o16-riscv" --trace "$work/t16-riscv.json"
  $check "$work/t16.json" "$work/b16/manifest.json" "$work/t16-riscv.json"
fi
