#!/usr/bin/env bash
# identical.sh TX8_AOT MODEL INPUTS_DIR WORK_DIR [HW_JSON]
# Compiles MODEL once (with --hw HW_JSON when given), runs the bundle on the cmodel and as RISC-V firmware under QEMU, and requires every
# output to be bit-identical (the two HAL backends run the same chip model).
set -euo pipefail
aot=$1 model=$2 inputs=$3 work=$4 hw=${5:-}
rm -rf "$work" && mkdir -p "$work"
"$aot" compile "$model" -o "$work/bundle" ${hw:+--hw "$hw"}
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$inputs" --out "$work/cmodel"
"$aot" run "$work/bundle" --target riscv --inputs-dir "$inputs" --out "$work/riscv"
n=0
for f in "$work"/cmodel/*.npy; do
  cmp "$f" "$work/riscv/$(basename "$f")"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no outputs compared" >&2; exit 1; }
echo "identical: $n output(s) bit-identical on cmodel and riscv"
