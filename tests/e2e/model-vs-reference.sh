#!/usr/bin/env bash
# model-vs-reference.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1) [HW_JSON]
# MAKE_SCRIPT OUT_DIR writes OUT_DIR/model.onnx and OUT_DIR/test_data_set_0/*.npy (its inputs). The bundle (compiled
# with --hw HW_JSON when given) must give outputs on the cmodel within rtol 1e-4 / atol 1e-5 of the reference
# model's, and QEMU's equal to the cmodel's.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4 hw=${5:-}
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model"
"$aot" compile "$work/model/model.onnx" -o "$work/bundle" ${hw:+--hw "$hw"}
"$aot" reference "$work/model/model.onnx" --inputs-dir "$work/model/test_data_set_0" --out "$work/ref"
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
/usr/bin/python3 - "$work/ref" "$work/cmodel" <<'PY'
import os, sys, numpy as np
ref_dir, got_dir = sys.argv[1], sys.argv[2]
names = sorted(f for f in os.listdir(ref_dir) if f.endswith(".npy"))
assert names, "the reference wrote no outputs"
for name in names:
    ref, got = np.load(os.path.join(ref_dir, name)), np.load(os.path.join(got_dir, name))
    assert got.shape == ref.shape, (name, got.shape, ref.shape)
    assert np.allclose(got, ref, rtol=1e-4, atol=1e-5), (name, float(np.abs(got - ref).max()))
    print("%s: max |err| vs reference %.3g" % (name, float(np.abs(got - ref).max())))
PY
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/bundle" --target riscv --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"
  for f in "$work"/cmodel/*.npy; do cmp "$f" "$work/riscv/$(basename "$f")"; done
fi
