#!/usr/bin/env bash
# recurrent.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1)
# RNN / GRU / LSTM in the forms the ONNX backend data lacks (make_recurrent_models.py: both directions, reverse,
# layout 1, clip, peepholes, initial states, linear_before_reset, activation parameters, run-time sequence
# lengths): each model's outputs on the cmodel must match the script's numpy implementation of the ONNX docs
# (test-onnx: rtol 1e-3, atol 1e-7); with WITH_RISCV=1 each also runs under QEMU, bit-identical to the cmodel.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
models=$(/usr/bin/python3 "$make" "$work/models")
[ -n "$models" ] || { echo "the generator wrote no models" >&2; exit 1; }
for m in $models; do
  "$aot" test-onnx "$work/models/$m" --target cmodel
  if [ "$riscv" = 1 ]; then
    "$here/identical.sh" "$aot" "$work/models/$m/model.onnx" "$work/models/$m/test_data_set_0" "$work/riscv-$m"
  fi
done
