#!/usr/bin/env bash
# demo-cnn.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1)
# The demo CNN compiled to a bundle: on the cmodel within tolerance of the reference (golden) model, also when
# a small SPM forces every conv into slices, and, with RISC-V, bit-identical under QEMU.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/bundle"
"$aot" reference "$work/model/model.onnx" --inputs-dir "$work/model/test_data_set_0" --out "$work/ref"
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
/usr/bin/python3 - "$work/ref/probs.npy" "$work/cmodel/probs.npy" <<'PY'
import sys, numpy as np
ref, got = np.load(sys.argv[1]), np.load(sys.argv[2])
assert got.shape == ref.shape == (1, 10) and got.dtype == np.float32, (got.shape, got.dtype)
assert np.allclose(got, ref, rtol=1e-3, atol=1e-7), np.abs(got - ref).max()
assert int(got.argmax()) == int(ref.argmax())
print("demo CNN on the cmodel: top class %d (p = %.4f), max |err| vs reference %.3g"
      % (int(got.argmax()), float(got.max()), float(np.abs(got - ref).max())))
PY
# With a 32 KiB SPM every conv is cut into row slices (halos, border pads per step): same answer.
echo '{"spm_bytes": 32768}' > "$work/small-spm.json"
"$aot" compile "$work/model/model.onnx" --hw "$work/small-spm.json" --tiles 1 -o "$work/sliced"
grep -q ' steps on tile 0, output slice' "$work/sliced/main.c"
"$aot" run "$work/sliced" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/sliced-out"
/usr/bin/python3 "$(dirname "$0")/close-to-reference.py" "demo CNN sliced for a 32 KiB SPM" "$work/ref/probs.npy" \
  "$work/sliced-out/probs.npy"
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/bundle" --target riscv --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"
  cmp "$work/cmodel/probs.npy" "$work/riscv/probs.npy"
  echo "demo CNN under QEMU: bit-identical to the cmodel"
fi
