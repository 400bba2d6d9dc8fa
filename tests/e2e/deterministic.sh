#!/usr/bin/env bash
# deterministic.sh TX8_AOT MAKE_SCRIPT OTHER_MODEL WORK_DIR
# The same model and options compile to byte-identical bundles (every file, consts.bin included), also with the
# debug outputs (--debug-outputs) and the test-only --test-inject-error; without them no trace of either.
set -euo pipefail
aot=$1 make=$2 other=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
demo=$work/model/model.onnx
# compile_twice MODEL OPTIONS...
compile_twice() {
  local model=$1
  shift
  "$aot" compile "$model" -o "$work/a" "$@"
  "$aot" compile "$model" -o "$work/b" "$@"
  diff -r "$work/a" "$work/b"
}
for model in "$demo" "$other"; do
  compile_twice "$model"
  ! grep -q '"node"\|test_inject_error' "$work/a/manifest.json" "$work/a/main.c"
  rm -rf "$work/a" "$work/b"
  compile_twice "$model" --debug-outputs
  grep -q '"node"' "$work/a/manifest.json"
  rm -rf "$work/a" "$work/b"
done
compile_twice "$demo" --debug-outputs --test-inject-error=block1.add
grep -q 'test_inject_error' "$work/a/manifest.json"
echo "deterministic: byte-identical bundles"
