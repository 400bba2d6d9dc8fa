#!/usr/bin/env bash
# demo-cnn.sh TX8_AOT MAKE_SCRIPT WORK_DIR
# The demo CNN generator is deterministic (two runs give the same bytes), the model imports, and the golden
# model runs it to a probability vector (10 values summing to 1).
set -euo pipefail
aot=$1 make=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/a" >/dev/null
/usr/bin/python3 "$make" "$work/b" >/dev/null
cmp "$work/a/model.onnx" "$work/b/model.onnx"
cmp "$work/a/test_data_set_0/input_0.pb" "$work/b/test_data_set_0/input_0.pb"
"$aot" reference "$work/a/model.onnx" --inputs-dir "$work/a/test_data_set_0" --out "$work/out"
/usr/bin/python3 - "$work/out/probs.npy" <<'PY'
import sys, numpy as np
p = np.load(sys.argv[1])
assert p.shape == (1, 10) and p.dtype == np.float32, (p.shape, p.dtype)
assert abs(float(p.sum()) - 1.0) < 1e-5 and (p > 0).all(), p
print("demo CNN on the reference: top class %d (p = %.4f)" % (int(p.argmax()), float(p.max())))
PY
