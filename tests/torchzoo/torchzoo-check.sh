#!/usr/bin/env bash
# torchzoo-check.sh AOT WORK MODEL [--riscv] [--precision P] [--size small|full] [--hw HW_JSON] [--exported DIR]
# One model of the torch zoo (models/make_torch_zoo.py: a real torch.onnx.export, small size unless --size full)
# end to end: export it into WORK/zoo/MODEL (or take DIR/MODEL, which make_torch_zoo.py wrote at this size), compile it (`AOT compile`, the default chip: 16 tiles), run the bundle
# on the cmodel (`AOT run --target cmodel`) on its input and compare with PyTorch's own output
# (tests/torchzoo/torchzoo_compare.py: |got - expected| <= 1e-4 * max|expected| + 1e-4 * |expected|; --precision
# bf16/fp16 by that format's rule, 16u * (max|expected| + |expected|); tf32 only that it compiles and runs). With --riscv the bundle also runs as RISC-V
# firmware under QEMU and must write .npy files byte-identical to the cmodel's.
# An embedding the model looks up at run time must be a Gather group of the manifest (check_embeddings.py).
# Prints the compile and run wall times, the simulated cycles and the max errors; exits 1 with the first failing
# line ("MODEL: compile failed: <the compiler's first error line>", "MODEL: cmodel failed: tx8 fault: ...", a
# MISMATCH line), 77 with a SKIP line when PyTorch or torchvision cannot be imported. A pass leaves only WORK's
# logs and outputs (the bundle goes: up to a hundred MB or so, so a test run does not fill the disk); a failure
# keeps the bundle.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: torchzoo-check.sh AOT WORK MODEL [--riscv] [--precision P] [--size small|full] [--hw HW_JSON]" \
    "[--exported DIR]" >&2
  exit 2
fi
aot=$1 work=$2 model=$3
shift 3
riscv=0 precision=fp32 size=small hw= exported=
while [ $# -gt 0 ]; do
  case $1 in
    --riscv) riscv=1 ;;
    --precision) precision=$2; shift ;;
    --size) size=$2; shift ;;
    --hw) hw=$2; shift ;;
    --exported) exported=$2; shift ;;
    *) echo "torchzoo-check.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if ! why=$(/usr/bin/python3 -c 'import torch, torchvision' 2>&1); then
  echo "SKIP: $model: PyTorch / torchvision not importable by /usr/bin/python3 (python3-torch," \
    "python3-torchvision): $(echo "$why" | tail -n 1)"
  exit 77
fi

rm -rf "$work" && mkdir -p "$work"
# step NAME COMMAND...: runs it with its output in WORK/NAME.log and its wall time in $secs; on failure prints the
# first error line (a fault's "tx8 fault:" line first) and exits 1
step() {
  local name=$1 t0 line
  shift
  t0=${EPOCHREALTIME//[!0-9]/}
  if ! "$@" >"$work/$name.log" 2>&1; then
    line=$(grep -m1 -o 'tx8 fault:.*' "$work/$name.log" || grep -m1 -i -A1 'error' "$work/$name.log" ||
      head -n 1 "$work/$name.log")
    # "cannot import the model; 1 problem:" names the problem on the next line
    case $line in *:$'\n'*) line=$(echo "$line" | tr '\n' ' ' | tr -s ' ') ;; *) line=${line%%$'\n'*} ;; esac
    echo "$model: $name failed: $(echo "$line" | sed -e 's/^tx8-aot: error: //' -e "s#$dir/##g" -e 's/ *$//')"
    exit 1
  fi
  t0=$(((${EPOCHREALTIME//[!0-9]/} - t0) / 100000)) # tenths of a second
  secs=$((t0 / 10)).$((t0 % 10))
}
if [ -n "$exported" ] && [ -f "$exported/$model/model.onnx" ] && [ -d "$exported/$model/test_data_set_0" ]; then
  dir=$exported/$model
  echo "$model: exported (torch.onnx.export) into $dir before"
else
  dir=$work/zoo/$model
  step export /usr/bin/python3 "$root/models/make_torch_zoo.py" "$work/zoo" --size "$size" --models "$model"
  echo "$model: exported (torch.onnx.export) in $secs s"
fi
data=$dir/test_data_set_0
step compile "$aot" compile "$dir/model.onnx" -o "$work/bundle" --precision "$precision" ${hw:+--hw "$hw"}
echo "$model: compiled in $secs s"
# an embedding with run-time indices is op_gather_rows, not a one-hot MatMul by the whole table (issue 34)
if ! /usr/bin/python3 "$here/check_embeddings.py" "$model" "$dir/model.onnx" "$work/bundle/manifest.json" \
  >"$work/embeddings.log" 2>&1; then
  echo "$model: $(grep -m1 -e MISMATCH -e Error "$work/embeddings.log" | sed "s/^$model: //")"
  exit 1
fi
cat "$work/embeddings.log"
step cmodel "$aot" run "$work/bundle" --target cmodel --inputs-dir "$data" --out "$work/cmodel"
echo "$model: ran on the cmodel in $secs s: $(grep -h -m1 -o '[0-9]* simulated cycles' "$work/cmodel.log")"

rule=()
case $precision in bf16|fp16) rule=(--precision "$precision") ;; esac
if [ "$precision" = fp32 ] || [ ${#rule[@]} -gt 0 ]; then
  /usr/bin/python3 "$here/torchzoo_compare.py" "$model" "$data" "$work/cmodel" "${rule[@]}" | tee "$work/compare.log"
  if grep -q MISMATCH "$work/compare.log"; then
    echo "$model: $(grep -m1 MISMATCH "$work/compare.log" | sed "s/^$model: //")"
    exit 1
  fi
fi

if [ "$riscv" = 1 ]; then
  step riscv "$aot" run "$work/bundle" --target riscv --inputs-dir "$data" --out "$work/riscv"
  for f in "$work"/cmodel/*.npy; do
    if ! cmp -s "$f" "$work/riscv/$(basename "$f")"; then
      echo "$model: riscv output $(basename "$f") differs from the cmodel's"
      exit 1
    fi
  done
  echo "$model: ran under QEMU in $secs s: outputs byte-identical to the cmodel's"
fi
rm -rf "$work/bundle"
echo "$model: ok"
