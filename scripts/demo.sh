#!/usr/bin/env bash
# The demo: a small CNN (models/make_demo_cnn.py: conv-bn-relu blocks, a residual add, pooling, a linear
# layer, softmax; deterministic weights) compiled by tx8-aot into a firmware bundle, run on the cmodel and
# as RISC-V firmware under QEMU, compared with the host reference model. Prints the top classes, the
# simulated cycles and the wall time of each step.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build=${BUILD_DIR:-build}
aot=$build/bin/tx8-aot
work=$build/demo
rm -rf "$work" && mkdir -p "$work"

# step NAME COMMAND...: runs the command, keeps its output in $work/NAME.log, prints its wall time.
step() {
  local name=$1
  shift
  local t0 t1
  t0=$EPOCHREALTIME
  if ! "$@" >"$work/$name.log" 2>&1; then
    cat "$work/$name.log" >&2
    echo "demo: step '$name' failed" >&2
    exit 1
  fi
  t1=$EPOCHREALTIME
  printf '  %-34s %7.3f s   %s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$(tail -n 1 "$work/$name.log")"
}

echo "tx8-aot demo: models/make_demo_cnn.py -> bundle -> cmodel and QEMU"
step "make model" /usr/bin/python3 models/make_demo_cnn.py "$work/model"
step "compile (tx8-aot compile)" "$aot" compile "$work/model/model.onnx" -o "$work/bundle"
step "reference (host golden model)" "$aot" reference "$work/model/model.onnx" \
  --inputs-dir "$work/model/test_data_set_0" --out "$work/reference"
step "run on the cmodel (build + run)" "$aot" run "$work/bundle" --target cmodel \
  --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
step "run under QEMU (build + run)" "$aot" run "$work/bundle" --target riscv \
  --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"

/usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np
work = sys.argv[1]
ref = np.load(work + "/reference/probs.npy")[0]
cm = np.load(work + "/cmodel/probs.npy")[0]
rv = np.load(work + "/riscv/probs.npy")[0]
print("  top classes (cmodel):", ", ".join("%d: %.4f" % (i, cm[i]) for i in np.argsort(-cm)[:3]))
print("  max |cmodel - reference| = %.3g; QEMU output bit-identical to the cmodel: %s"
      % (float(np.abs(cm - ref).max()), "yes" if cm.tobytes() == rv.tobytes() else "NO"))
if cm.tobytes() != rv.tobytes() or not np.allclose(cm, ref, rtol=1e-3, atol=1e-7):
    sys.exit(1)
PY
echo "  bundle: $work/bundle (main.c, model.h, consts.bin, manifest.json, CMakeLists.txt)"
