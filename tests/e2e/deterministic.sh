#!/usr/bin/env bash
# deterministic.sh TX8_AOT MAKE_SCRIPT OTHER_MODEL WORK_DIR
# The same model and options compile to byte-identical bundles (every file, consts.bin included).
set -euo pipefail
aot=$1 make=$2 other=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
for model in "$work/model/model.onnx" "$other"; do
  "$aot" compile "$model" -o "$work/a"
  "$aot" compile "$model" -o "$work/b"
  diff -r "$work/a" "$work/b"
  rm -rf "$work/a" "$work/b"
done
echo "deterministic: byte-identical bundles"
