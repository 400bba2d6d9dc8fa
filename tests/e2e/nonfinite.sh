#!/usr/bin/env bash
# nonfinite.sh TX8_AOT WORK_DIR
# NaN, +-inf and overflow follow IEEE / ONNX (numpy) semantics on the chip and on the host reference alike: a NaN
# propagates (Relu(NaN) is NaN, a max-pool window holding a NaN is NaN), a softmax row holding NaN or +inf is NaN
# throughout, a Gemm that overflows gives inf and its softmax NaN. Both runs must agree on every NaN position and every other value.
set -euo pipefail
aot=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 - "$work" <<'PY'
import numpy as np, sys
w = sys.argv[1]
inf, nan = np.inf, np.nan
np.save(w + "/x.npy", np.array([[1, 2, 3, 4], [1, nan, 3, 4], [1, inf, 3, 4], [-inf, 2, 3, 4]], np.float32))
np.save(w + "/a.npy", np.array([[10, 10, 10, 10], [1e-38, 0, 0, 0]], np.float32))  # row 0: 4e38 overflows
p = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
p[0, 0, 0, 1], p[0, 0, 2, 2], p[0, 0, 3, 0] = nan, inf, -inf  # one per 2x2 window but the second
np.save(w + "/p.npy", p)
np.save(w + "/v.npy", np.array([-1, 0, 1, 2, 3], np.float32))
PY
check() { # MODEL INPUT-ARG [finite]
  local m=$1 finite=${3:-} name
  name=$(basename "$m" .onnxtxt)
  "$aot" compile "$here/nonfinite/$m" -o "$work/$name" >/dev/null
  "$aot" run "$work/$name" --input "$2" --out "$work/$name-dev" >/dev/null
  "$aot" reference "$here/nonfinite/$m" --input "$2" --out "$work/$name-ref" >/dev/null
  /usr/bin/python3 - "$work/$name-dev" "$work/$name-ref" "$name" "$finite" <<'PY'
import glob, os, sys
import numpy as np
dev, ref, name, finite = sys.argv[1:]
for f in sorted(glob.glob(ref + "/*.npy")):
    r, d = np.load(f), np.load(os.path.join(dev, os.path.basename(f)))
    if not (np.isnan(r) == np.isnan(d)).all() or not np.allclose(d, r, rtol=1e-5, atol=1e-7, equal_nan=True):
        sys.exit(f"{name}/{os.path.basename(f)}: the chip and the reference disagree on non-finite values:\n"
                 f"chip\n{d}\nreference\n{r}")
    if not finite and not np.isnan(r).any():
        sys.exit(f"{name}/{os.path.basename(f)}: no NaN at all: the case tests nothing")
print(f"{name}: chip and reference agree, NaN positions included")
PY
}
check softmax-relu.onnxtxt "x=$work/x.npy"
check gemm-overflow.onnxtxt "a=$work/a.npy"
check pools.onnxtxt "x=$work/p.npy"
check vector.onnxtxt "x=$work/v.npy" finite
