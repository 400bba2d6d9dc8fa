#!/usr/bin/env bash
# long-chain.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1)
# A chain of 600 elementwise nodes: 600 group functions, 256 per C source (main.c, groups_1.c, groups_2.c).
# The bundle must match the reference, QEMU the cmodel bit for bit; the extra sources are checked like main.c
# (an edit or a shortened "sources" list is refused); recompiling a short model over it leaves no stale source.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" 600
"$aot" compile "$work/model/model.onnx" -o "$work/bundle" --fuse=false # a group per node
[ "$(cd "$work/bundle" && ls *.c | tr '\n' ' ')" = "groups_1.c groups_2.c main.c " ]
[ "$(grep -c '^uint64_t group_[0-9]*(void) {' "$work/bundle/groups_1.c")" = 256 ]
[ "$(grep -c '^uint64_t group_[0-9]*(void) {' "$work/bundle/groups_2.c")" = 88 ]
/usr/bin/python3 - "$work/bundle/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["sources"] == ["main.c", "groups_1.c", "groups_2.c"], m["sources"]
assert set(m["files"]) == {"CMakeLists.txt", "consts.bin", "main.c", "model.h", "groups_1.c", "groups_2.c"}, m["files"]
PY
"$aot" reference "$work/model/model.onnx" --inputs-dir "$work/model/test_data_set_0" --out "$work/ref"
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
/usr/bin/python3 - "$work/ref/y.npy" "$work/cmodel/y.npy" <<'PY'
import sys, numpy as np
ref, got = np.load(sys.argv[1]), np.load(sys.argv[2])
assert got.shape == ref.shape == (1, 4, 8, 8), got.shape
assert np.allclose(got, ref, rtol=1e-5, atol=1e-6), np.abs(got - ref).max()
print("600-node chain: max |err| vs reference %.3g" % float(np.abs(got - ref).max()))
PY
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/bundle" --target riscv --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"
  cmp "$work/cmodel/y.npy" "$work/riscv/y.npy"
fi

# expect_refused DIR TEXT: run must fail naming TEXT.
expect_refused() {
  local err
  if err=$("$aot" run "$1" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/x" 2>&1); then
    echo "FAIL: $1 ran"; exit 1
  fi
  grep -qF -- "$2" <<<"$err" || { echo "FAIL: expected '$2', got: $err"; exit 1; }
}
cp -r "$work/bundle" "$work/edited" && rm -rf "$work/edited"/build-*
sed -i 's/return cycles;/return 0;/' "$work/edited/groups_2.c"
expect_refused "$work/edited" "groups_2.c is corrupt"
cp -r "$work/bundle" "$work/shortened" && rm -rf "$work/shortened"/build-*
/usr/bin/python3 - "$work/shortened/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["sources"].pop(); del m["files"]["groups_2.c"]
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
expect_refused "$work/shortened" "edited after compile"

# A short model compiled over the long one: the groups_<k>.c of the old bundle go with it.
/usr/bin/python3 "$make" "$work/short" 5
"$aot" compile "$work/short/model.onnx" -o "$work/bundle"
[ "$(cd "$work/bundle" && ls *.c)" = "main.c" ]
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/short/test_data_set_0" --out "$work/short-out" >/dev/null
echo "long-chain: ok"
