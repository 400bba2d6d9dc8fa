#!/usr/bin/env bash
# zoo-check.sh AOT WORK MODEL [--riscv] [--hw HW_JSON] [--size small|full]
# One model of the zoo (models/make_zoo.py, small size unless --size full) end to end: generate it into
# WORK/zoo/MODEL, compile it (`AOT compile`, the default hardware config or HW_JSON), run the golden model
# (`AOT reference`) and the bundle on the cmodel (`AOT run --target cmodel`) on its input, and require
#   - cmodel vs reference and reference vs the numpy float64 forward (make_zoo's output_<k>.pb):
#     |got - ref| <= 1e-4 * |ref| + 1e-5 * max|ref| (tests/zoo/zoo_compare.py says why)
#   - with --riscv: the bundle as RISC-V firmware under QEMU writes .npy files byte-identical to the cmodel's.
# Prints the max abs/rel error of each comparison; exits 1 on the first failure (a failed compile prints the
# compiler's first error line). A pass leaves only WORK's logs and outputs: the model and its bundle (up to a few
# hundred MB each for the large ones) go, so a test run does not fill the disk; a failure keeps everything.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: zoo-check.sh AOT WORK MODEL [--riscv] [--hw HW_JSON] [--size small|full]" >&2
  exit 2
fi
aot=$1 work=$2 model=$3
shift 3
riscv=0 hw= size=small
while [ $# -gt 0 ]; do
  case $1 in
    --riscv) riscv=1 ;;
    --hw) hw=$2; shift ;;
    --size) size=$2; shift ;;
    *) echo "zoo-check.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$root/models/make_zoo.py" "$work/zoo" --size "$size" --models "$model" >/dev/null
dir=$work/zoo/$model
data=$dir/test_data_set_0

# step NAME COMMAND...: runs it with its output in WORK/NAME.log; on failure prints the first error line
step() {
  local name=$1
  shift
  if ! "$@" >"$work/$name.log" 2>&1; then
    echo "$model: $name failed: $(grep -m1 -i 'error' "$work/$name.log" || head -n 1 "$work/$name.log")"
    exit 1
  fi
}
step compile "$aot" compile "$dir/model.onnx" -o "$work/bundle" ${hw:+--hw "$hw"}
step reference "$aot" reference "$dir/model.onnx" --inputs-dir "$data" --out "$work/ref"
step cmodel "$aot" run "$work/bundle" --target cmodel --inputs-dir "$data" --out "$work/cmodel"
grep -h 'simulated cycles' "$work/cmodel.log" || true

/usr/bin/python3 "$here/zoo_compare.py" "$model" "$work/ref" "$work/cmodel" "$data"

if [ "$riscv" = 1 ]; then
  step riscv "$aot" run "$work/bundle" --target riscv --inputs-dir "$data" --out "$work/riscv"
  for f in "$work"/cmodel/*.npy; do
    if ! cmp -s "$f" "$work/riscv/$(basename "$f")"; then
      echo "$model: riscv output $(basename "$f") differs from the cmodel's"
      exit 1
    fi
  done
  echo "$model: riscv outputs byte-identical to the cmodel's"
fi
rm -rf "$work/zoo" "$work/bundle"
echo "$model: ok"
