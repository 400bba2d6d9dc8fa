#!/usr/bin/env bash
# precision.sh TX8_AOT MAKE_DEMO_CNN CONV2D_TESTDIR WORK_DIR
# tx8-aot --precision: the demo CNN compiled with --precision tf32 runs its convs and its linear layer with tf32
# NE inputs (fp32 accumulation): main.c hands OpLib Fmt_TF32 operands, the manifest records the precision, the
# outputs stay within the tf32 rule of the fp32 reference (test-onnx's: |err| <= 16u * (max|ref| + |ref|),
# u = 2^-11) and the simulated cycles are fewer than fp32's. fp32 given explicitly is the default, byte for
# byte. test-onnx applies the same rule to pytorch-converted Conv2d. bf16 / fp16 are refused (not implemented).
set -euo pipefail
aot=$1 make=$2 conv2d=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
in="$work/model/test_data_set_0"
"$aot" reference "$work/model/model.onnx" --inputs-dir "$in" --out "$work/ref" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/fp32" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/fp32-explicit" --precision fp32 >/dev/null
diff -r "$work/fp32" "$work/fp32-explicit"
if grep -q '"precision"' "$work/fp32/manifest.json"; then echo 'fp32 manifest names a precision'; exit 1; fi
"$aot" compile "$work/model/model.onnx" -o "$work/tf32" --precision tf32 >/dev/null
grep -q '"precision": *"tf32"' "$work/tf32/manifest.json"
grep -q 'TSR in0 = {Fmt_TF32' "$work/tf32/main.c"
grep -q 'TSR in1 = {Fmt_TF32' "$work/tf32/main.c"
cyc() { sed -n 's/^cmodel: \([0-9]*\) simulated cycles.*/\1/p' "$1"; }
"$aot" run "$work/fp32" --target cmodel --inputs-dir "$in" --out "$work/fp32-out" > "$work/fp32.log"
"$aot" run "$work/tf32" --target cmodel --inputs-dir "$in" --out "$work/tf32-out" > "$work/tf32.log"
grep -q '^precision: tf32 NE inputs, fp32 accumulation' "$work/tf32.log"
/usr/bin/python3 - "$work/ref/probs.npy" "$work/fp32-out/probs.npy" "$work/tf32-out/probs.npy" \
  "$(cyc "$work/fp32.log")" "$(cyc "$work/tf32.log")" <<'PY'
import sys, numpy as np
ref, fp32, tf32 = (np.load(p) for p in sys.argv[1:4])
c32, ctf = int(sys.argv[4]), int(sys.argv[5])
tol = 16 * 2.0 ** -11
err = np.abs(tf32 - ref)
bound = tol * np.abs(ref).max() + tol * np.abs(ref)
assert (err <= bound).all(), (err.max(), tol)
assert not np.array_equal(tf32, fp32), "tf32 gave the fp32 bits: the NE did not round its inputs"
assert ctf < c32, (ctf, c32)
print("demo CNN: fp32 %d cycles (max |err| %.3g), tf32 %d cycles (max |err| %.3g, max |err|/max|ref| %.3g, "
      "rule 16u = %.3g)" % (c32, np.abs(fp32 - ref).max(), ctf, err.max(), err.max() / np.abs(ref).max(), tol))
PY
"$aot" test-onnx "$conv2d" --target cmodel --precision tf32 | tee "$work/conv2d.log"
grep -q '^PASSED: .*precision tf32)' "$work/conv2d.log"
grep -q 'precision tf32 vs the fp32 reference: max |err|' "$work/conv2d.log"
for p in bf16 fp16; do
  if "$aot" compile "$work/model/model.onnx" -o "$work/$p" --precision $p 2> "$work/$p.err"; then
    echo "--precision $p: expected a refusal"; exit 1
  fi
  grep -q "precision $p is not implemented yet" "$work/$p.err"
done
if "$aot" compile "$work/model/model.onnx" -o "$work/bad" --precision fp8 2> "$work/bad.err"; then exit 1; fi
echo "precision: ok"
