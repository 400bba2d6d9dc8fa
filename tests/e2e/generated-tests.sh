#!/usr/bin/env bash
# generated-tests.sh TX8_AOT MAKE_SCRIPT WORK_DIR QEMU_SAMPLE [TEST_ONNX_OPTION...]
# MAKE_SCRIPT OUT_DIR writes ONNX test directories (onnx_testdir.py) whose expected outputs it computes with
# numpy, and prints their names. Each model's outputs on the cmodel must match (test-onnx: floats within rtol
# 1e-3 / atol 1e-7 unless the options say otherwise, integers exactly); the first QEMU_SAMPLE models (0: none,
# "all": every one) also run under QEMU, bit-identical to the cmodel. A sample is enough here: these families
# lower to kernels that the e2e.riscv.* backend tests already run under QEMU one by one, and a QEMU run costs
# about twice the cmodel's. TX8_QEMU_SAMPLE=all in the environment runs every model there
# (TX8_QEMU_SAMPLE=all ctest -R '^e2e.einsum$').
set -euo pipefail
aot=$1 make=$2 work=$3 sample=${TX8_QEMU_SAMPLE:-$4}
shift 4
hw=""  # a --hw among the options compiles the QEMU run's bundle with it too
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do [ "${args[i]}" = --hw ] && hw=${args[i + 1]}; done
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
models=$(/usr/bin/python3 "$make" "$work/models")
[ -n "$models" ] || { echo "the generator wrote no models" >&2; exit 1; }
case $sample in all | [0-9]*) ;; *) echo "generated-tests.sh: QEMU_SAMPLE is a count or 'all', not '$sample'" >&2; exit 2 ;; esac
n=0
for m in $models; do
  "$aot" test-onnx "$work/models/$m" --target cmodel "$@"
  n=$((n + 1))
  if [ "$sample" = all ] || [ "$n" -le "$sample" ]; then
    "$here/identical.sh" "$aot" "$work/models/$m/model.onnx" "$work/models/$m/test_data_set_0" "$work/riscv-$m" $hw
  fi
done
