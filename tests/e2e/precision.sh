#!/usr/bin/env bash
# precision.sh TX8_AOT MAKE_DEMO_CNN CONV2D_TESTDIR WORK_DIR
# tx8-aot --precision: the demo CNN compiled with --precision tf32 / bf16 / fp16 runs its convs and its linear
# layer with reduced NE inputs and fp32 accumulation: main.c hands OpLib operands in that format (tf32: the
# fp32 bytes as Fmt_TF32; bf16/fp16: Casts, 2-byte constants), the manifest records the precision, the outputs
# stay within the format's rule against the fp32 reference (test-onnx's: |err| <= 16u * (max|ref| + |ref|),
# u = 2^-11 for tf32/fp16, 2^-8 for bf16) and the simulated cycles are fewer than fp32's. fp32 given explicitly
# is the default, byte for byte. test-onnx applies the same rule to pytorch-converted Conv2d.
# All on one tile (--tiles 1): on 16 tiles the demo is so small that the bf16/fp16 casts of its activations, each a
# group of its own, cost more than the NE saves (24,671 fp32 vs 26,231 bf16 cycles).
set -euo pipefail
aot=$1 make=$2 conv2d=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
in="$work/model/test_data_set_0"
"$aot" reference "$work/model/model.onnx" --inputs-dir "$in" --out "$work/ref" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/fp32" --tiles 1 >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/fp32-explicit" --precision fp32 --tiles 1 >/dev/null
diff -r "$work/fp32" "$work/fp32-explicit"
if grep -q '"precision"' "$work/fp32/manifest.json"; then echo 'fp32 manifest names a precision'; exit 1; fi
cyc() { sed -n 's/^cmodel: \([0-9]*\) simulated cycles.*/\1/p' "$1"; }
"$aot" run "$work/fp32" --target cmodel --inputs-dir "$in" --out "$work/fp32-out" > "$work/fp32.log"
for p in tf32 bf16 fp16; do
  "$aot" compile "$work/model/model.onnx" -o "$work/$p" --precision $p --tiles 1 >/dev/null
  grep -q "\"precision\": *\"$p\"" "$work/$p/manifest.json"
  fmt=$(echo "$p" | tr a-z A-Z)
  grep -q "TSR in0 = {Fmt_$fmt" "$work/$p/main.c"
  grep -q "TSR in1 = {Fmt_$fmt" "$work/$p/main.c"
  "$aot" run "$work/$p" --target cmodel --inputs-dir "$in" --out "$work/$p-out" > "$work/$p.log"
  grep -q "^precision: $p NE inputs, fp32 accumulation" "$work/$p.log"
  /usr/bin/python3 - "$p" "$work/ref/probs.npy" "$work/fp32-out/probs.npy" "$work/$p-out/probs.npy" \
    "$(cyc "$work/fp32.log")" "$(cyc "$work/$p.log")" <<'PY'
import sys, numpy as np
p = sys.argv[1]
ref, fp32, got = (np.load(f) for f in sys.argv[2:5])
c32, c = int(sys.argv[5]), int(sys.argv[6])
tol = 16 * 2.0 ** (-8 if p == "bf16" else -11)
err = np.abs(got - ref)
assert (err <= tol * np.abs(ref).max() + tol * np.abs(ref)).all(), (p, err.max(), tol)
assert not np.array_equal(got, fp32), p + " gave the fp32 bits: the NE did not read a reduced format"
assert c < c32, (p, c, c32)
print("demo CNN: fp32 %d cycles (max |err| %.3g), %s %d cycles (max |err| %.3g, max |err|/max|ref| %.3g, "
      "rule 16u = %.3g)" % (c32, np.abs(fp32 - ref).max(), p, c, err.max(), err.max() / np.abs(ref).max(), tol))
PY
  "$aot" test-onnx "$conv2d" --target cmodel --precision $p | tee "$work/conv2d-$p.log"
  grep -q "^PASSED: .*precision $p)" "$work/conv2d-$p.log"
  grep -q "precision $p vs the fp32 reference: max |err|" "$work/conv2d-$p.log"
done
if "$aot" compile "$work/model/model.onnx" -o "$work/bad" --precision fp8 2> "$work/bad.err"; then exit 1; fi
grep -q 'precision fp8: expected fp32, tf32, bf16 or fp16' "$work/bad.err"
echo "precision: ok"
