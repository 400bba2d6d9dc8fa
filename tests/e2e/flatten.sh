#!/usr/bin/env bash
# flatten.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1)
# A Flatten of an NHWC feature map with H*W > 1 needs its bytes moved to NCHW order on the device (a
# ChannelNorm run by op_permute): the bundle must match the reference model, and QEMU the cmodel bit for bit.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model"
"$aot" compile "$work/model/model.onnx" -o "$work/bundle"
grep -q 'op_permute(' "$work/bundle/main.c"
"$aot" reference "$work/model/model.onnx" --inputs-dir "$work/model/test_data_set_0" --out "$work/ref"
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
/usr/bin/python3 - "$work/ref/y.npy" "$work/cmodel/y.npy" <<'PY'
import sys, numpy as np
ref, got = np.load(sys.argv[1]), np.load(sys.argv[2])
assert got.shape == ref.shape == (1, 5), got.shape
assert np.allclose(got, ref, rtol=1e-3, atol=1e-5), (got, ref)
print("flatten after conv: max |err| vs reference %.3g" % float(np.abs(got - ref).max()))
PY
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/bundle" --target riscv --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"
  cmp "$work/cmodel/y.npy" "$work/riscv/y.npy"
fi
