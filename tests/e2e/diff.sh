#!/usr/bin/env bash
# diff.sh TX8_AOT MAKE_SCRIPT WORK_DIR cmodel|riscv
# `tx8-aot diff` on the demo CNN (diff-check.py checks the tables and the .npy files):
#   cmodel: a clean run (every node output within tolerance, exit 0, rows in the model's order); the test-only
#           --test-inject-error at a middle node on 16 tiles and at another on one tile (exit 3, exactly that
#           node the first divergence, the device's values before it the clean run's, after it wrong); bad command
#           lines and inputs (one-line errors, exit 1 or 2).
#   riscv:  the clean run and an injected one under QEMU: the same verdicts, the device's values bit-identical to
#           the cmodel's.
set -euo pipefail
aot=$1 make=$2 work=$3 target=$4
check="/usr/bin/python3 $(dirname "$0")/diff-check.py"
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
model=$work/model/model.onnx inputs=$work/model/test_data_set_0
# fp32 convs sum hundreds of products near zero: the reference (oneDNN) and the NE round differently.
tol=(--atol 1e-5)

# diff_run NAME EXPECTED_EXIT ARGS...: the text table in NAME.txt, --out NAME/ (its diff.tsv).
diff_run() {
  local name=$1 want=$2 rc=0
  shift 2
  "$aot" diff "$model" --inputs-dir "$inputs" "${tol[@]}" --out "$work/$name" "$@" > "$work/$name.txt" || rc=$?
  if [ "$rc" != "$want" ]; then
    cat "$work/$name.txt"
    echo "diff.sh: tx8-aot diff $* exited $rc, expected $want" >&2
    exit 1
  fi
}

if [ "$target" = riscv ]; then
  diff_run cmodel 0 --target cmodel
  diff_run clean 0 --target riscv
  $check clean "$model" "$work/clean"
  cmp "$work/clean/diff.tsv" "$work/cmodel/diff.tsv"
  diff -r "$work/clean/device" "$work/cmodel/device"
  diff_run inject 3 --target riscv --test-inject-error=block1a.relu
  $check inject "$model" "$work/inject" "$work/clean" block1a.relu
  echo "diff under QEMU: the cmodel's table and device values, the injected node found"
  exit 0
fi

# (a) clean: exit 0, every row within tolerance, the TSV on stdout equal to --out's
diff_run clean 0
$check clean "$model" "$work/clean"
"$aot" diff "$model" --inputs-dir "$inputs" "${tol[@]}" --format tsv > "$work/clean-stdout.tsv" 2> "$work/clean.summary"
cmp "$work/clean-stdout.tsv" "$work/clean/diff.tsv"
grep -qx "all 18 tensors within tolerance" "$work/clean.summary"
# (b, c) an error injected on the device: on 16 tiles (between barriers) and on one tile (main's group calls)
diff_run inject 3 --test-inject-error=block1a.relu
$check inject "$model" "$work/inject" "$work/clean" block1a.relu
diff_run inject1 3 --test-inject-error=pool --tiles 1
$check inject "$model" "$work/inject1" "$work/clean" pool
# the default tolerance is test-onnx's (atol 1e-7): the same run without --atol also fails, but not before
# a conv (a real diff's "first divergence" is only as good as its tolerance)
tol=()
diff_run strict 3
grep -q "^first divergence: node '[^']*' (Conv)" "$work/strict.txt"
tol=(--atol 1e-5)

# (d) bad inputs and command lines: one line on stderr, exit 1 (the model, an input) or 2 (usage)
# expect EXIT MESSAGE ARGS...
expect() {
  local want=$1 message=$2 rc=0
  shift 2
  "$aot" diff "$@" > "$work/bad.out" 2> "$work/bad.err" || rc=$?
  if [ "$rc" != "$want" ] || [ "$(wc -l < "$work/bad.err")" != 1 ] || ! grep -qF -- "$message" "$work/bad.err"; then
    echo "diff.sh: tx8-aot diff $*: exit $rc, stderr:" >&2
    cat "$work/bad.err" >&2
    echo "diff.sh: expected exit $want and one line with: $message" >&2
    exit 1
  fi
}
/usr/bin/python3 -c "import numpy as np; np.save('$work/x.npy', np.zeros((1, 3, 32, 32), np.float32)); np.save('$work/x-wrong.npy', np.zeros((1, 3, 16, 16), np.float32))"
expect 1 "tx8-aot: error: --input nosuch=$work/x.npy: the model has no input 'nosuch' (inputs: 'input')" \
  "$model" --input nosuch="$work/x.npy"
expect 1 "tx8-aot: error: $work/missing.npy" "$model" --input input="$work/missing.npy"
expect 1 "input 'input' is a f32 tensor of shape (1, 3, 16, 16), the model expects tensor<1x3x32x32xf32>" \
  "$model" --input input="$work/x-wrong.npy"
expect 1 "tx8-aot: error: --test-inject-error nosuch: the model has no node of that name" \
  "$model" --input input="$work/x.npy" --test-inject-error=nosuch
expect 1 "tx8-aot: error: $work/missing.onnx" "$work/missing.onnx" --input input="$work/x.npy"
touch "$work/a-file"
expect 1 "tx8-aot: error: $work/a-file: cannot create the directory: a file is in the way" "$model" \
  --input input="$work/x.npy" --out "$work/a-file"
expect 2 "tx8-aot: error: no inputs: give --input NAME=FILE ... or --inputs-dir DIR" "$model"
expect 2 "tx8-aot: error: --input input: expected NAME=FILE" "$model" --input input
expect 2 "is given twice" "$model" --input input="$work/x.npy" --input input="$work/x.npy"
expect 2 "tx8-aot: error: --target gpu: expected cmodel or riscv" "$model" --input input="$work/x.npy" --target gpu
expect 2 "tx8-aot: error: --precision fp8: expected fp32, tf32, bf16 or fp16" "$model" --input input="$work/x.npy" \
  --precision fp8
expect 2 "is an MLIR model" "$work/model.mlir" --input input="$work/x.npy"
expect 2 "Cannot find option named 'csv'" "$model" --input input="$work/x.npy" --format csv
echo "diff: clean, injected (16 tiles and 1) and bad inputs as expected"
