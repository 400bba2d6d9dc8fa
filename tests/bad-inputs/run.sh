#!/usr/bin/env bash
# run.sh TX8_AOT WORK_DIR
# The bad-input corpus: every case is a command that must fail with the given exit code (1: the input is bad,
# 2: the command line is) and one line on stderr containing the given text; no crash, no hang, nothing left
# behind. A few good neighbours (a deliberately supported edge) must still pass.
set -uo pipefail
aot=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
models=$here/models
rm -rf "$work" && mkdir -p "$work"
failures=0 cases=0

# expect EXIT TEXT -- COMMAND...
expect() {
  local want=$1 text=$2
  shift 3
  cases=$((cases + 1))
  local err rc
  err=$(timeout 60 "$@" 2>&1 >/dev/null)
  rc=$?
  local lines
  lines=$(printf '%s' "$err" | grep -c '')
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL (exit $rc, expected $want): $*"; echo "  $err" | head -3; failures=$((failures + 1))
  elif [ "$want" -ne 0 ] && { [ "$lines" -ne 1 ] || ! grep -qF -- "$text" <<<"$err"; }; then
    echo "FAIL (expected one line with '$text'): $*"; echo "$err" | head -3 | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}

# ---- models (import / compile)
expect 1 "opset 5 of ai.onnx makes it Add-1; this importer supports opsets 6-" -- "$aot" import "$models/opset5-add.onnxtxt"
expect 0 "" -- "$aot" import "$models/opset1-softplus.onnxtxt" # Softplus-1 is unchanged since opset 6
expect 1 "opset 99 of ai.onnx is newer than this importer supports (6-21)" -- "$aot" import "$models/opset99.onnxtxt"
expect 1 "the graph has no outputs: nothing to compute" -- "$aot" compile "$models/no-outputs.onnxtxt" -o "$work/b"
expect 1 "the graph has no nodes: nothing to compute" -- "$aot" compile "$models/no-nodes.onnxtxt" -o "$work/b"
expect 1 "@main has no results: nothing to compute" -- "$aot" compile "$models/no-results.mlir" -o "$work/b"
expect 1 "the model is not a regular file (a device or socket)" -- "$aot" compile /dev/zero -o "$work/b"
mkfifo "$work/fifo.onnx"
expect 1 "the model is not a regular file (a pipe)" -- "$aot" compile "$work/fifo.onnx" -o "$work/b"
expect 1 "the model is not a regular file (a directory)" -- "$aot" import "$work"
# Models libonnx 1.12's shape inference crashes on (fuzz/crashes): refused by the converters, no crash.
crashes=$here/../../fuzz/crashes/fuzz_onnx_import
expect 1 "(ConvTranspose, domain ai.onnx, opset 11, output 'Y'): input and weight must have the same rank" -- "$aot" compile "$crashes/libonnx-convtranspose.onnx" -o "$work/b"
expect 1 "(MaxPool, domain ai.onnx, opset 6, output '1'): strides value 0 is not in [1, 2^30]" -- "$aot" compile "$crashes/libonnx-pool-division-by-zero.onnx" -o "$work/b"
expect 1 "(QLinearConv, domain ai.onnx, opset 10, output 'y'): input and weight must have the same rank >= 3" -- "$aot" compile "$crashes/libonnx-qlinearconv-rank-mismatch.onnx" -o "$work/b"
# Quantization (issue 36): bad scales, zero points and axes are refused naming the node, nothing written.
q="domain ai.onnx, opset 13, output 'y')"
expect 1 "(QuantizeLinear, $q: scale element 0 is 0: a scale must be positive and finite" -- "$aot" compile "$models/quant-zero-scale.onnxtxt" -o "$work/b"
expect 1 "(QuantizeLinear, $q: scale element 1 is -2: a scale must be positive and finite" -- "$aot" compile "$models/quant-negative-scale.onnxtxt" -o "$work/b"
expect 1 "(DequantizeLinear, $q: scale element 0 is inf: a scale must be positive and finite" -- "$aot" compile "$models/quant-inf-scale.onnxtxt" -o "$work/b"
expect 1 "(DequantizeLinear, $q: the zero point is i8, but the input is ui8: they must have one type" -- "$aot" compile "$models/quant-zp-type.onnxtxt" -o "$work/b"
expect 1 "(QuantizeLinear, $q: axis = 4 is out of range for an input of rank 4" -- "$aot" compile "$models/quant-axis-range.onnxtxt" -o "$work/b"
expect 1 "(DequantizeLinear, $q: the per-axis scale has 4 elements, but dim 1 of the input has 3" -- "$aot" compile "$models/quant-scale-length.onnxtxt" -o "$work/b"
expect 1 "(MatMulInteger, domain ai.onnx, opset 10, output 'y'): a_zero_point has 3 elements: one (per tensor) or 4 is expected" -- "$aot" compile "$models/quant-matmulinteger-zp.onnxtxt" -o "$work/b"
[ -e "$work/b" ] && { echo "FAIL: a failed compile left $work/b"; failures=$((failures + 1)); }

# Errors name the file (and the ONNX node of an op); several problems: one line each, each naming the file;
# a name of thousands of characters is cut.
cases=$((cases + 1))
err=$("$aot" import "$models/two-problems.onnxtxt" 2>&1 >/dev/null)
if [ "$(grep -c '' <<<"$err")" -ne 3 ] || [ "$(grep -c 'two-problems.onnxtxt: ' <<<"$err")" -ne 3 ]; then
  echo "FAIL: a multi-problem import error must name the file on each of its 3 lines:"; echo "$err"
  failures=$((failures + 1))
fi
echo '{"spm_bytes": 256}' >"$work/spm256.json"
expect 1 "relu.onnxtxt: node 'y' (onnx.Relu): 'tx8be.Relu' op does not fit in SPM" -- "$aot" compile "$models/relu.onnxtxt" --hw "$work/spm256.json" -o "$work/b"
/usr/bin/python3 -c "
import sys; s = open(sys.argv[1]).read().replace('op_type: \"Relu\"', 'op_type: \"' + 'X' * 5000 + '\"')
open(sys.argv[2], 'w').write(s)" "$models/relu.onnxtxt" "$work/long-op.onnxtxt"
expect 1 "more characters)" -- "$aot" compile "$work/long-op.onnxtxt" -o "$work/b"
cases=$((cases + 1))
[ "$("$aot" compile "$work/long-op.onnxtxt" -o "$work/b" 2>&1 | wc -c)" -lt 1200 ] || { echo "FAIL: a 5,000-character op type makes a long line"; failures=$((failures + 1)); }

# Sizes: 2^31 x 2^31 x 4 f32 is 2^66 bytes (it compiled to 0-byte tensors); 2^48 elements do not fit 64 GiB.
expect 1 "is too large: its size in bytes overflows 64 bits" -- "$aot" compile "$models/size-overflow.mlir" -o "$work/b"
expect 1 "needs 1125899906842624 bytes, more than the chip's DDR (68719476736 bytes)" -- "$aot" compile "$models/beyond-ddr.mlir" -o "$work/b"

# Plans: the split search weighs candidates from a few sample steps, so a wide tensor costs no memory (a
# 1 GiB address-space limit: enumerating the 2^22 one-column steps took 1.4 GB at 2^20 and ran out of memory
# from 2^22 on); a schedule is bounded.
# An ASan build (scripts/sanitize.sh) reserves terabytes of address space for its shadow memory: it gets the limit
# as ASan's hard_rss_limit_mb instead.
limit="ulimit -v 1048576 && "
if grep -qa __asan_init "$aot"; then
  limit="export ASAN_OPTIONS=\${ASAN_OPTIONS:-}:hard_rss_limit_mb=1024 && "
fi
expect 0 "" -- bash -c "${limit}exec \"\$0\" \"\$@\"" "$aot" compile "$models/wide-relu.mlir" -o "$work/wide"
echo '{"spm_bytes": 1024}' >"$work/spm1k.json"
expect 1 "fits in SPM only in slices [1, 1] of 12800000 steps or more; a schedule has at most 65536" -- "$aot" compile "$models/many-steps.mlir" --hw "$work/spm1k.json" -o "$work/b"

# ---- --hw files
printf '%*s' 100000 '' | tr ' ' '[' >"$work/deep.json"
expect 1 "JSON nested more than 64 levels deep" -- "$aot" compile "$models/relu.onnxtxt" --hw "$work/deep.json" -o "$work/b"
# Values the chip model refused with an abort (exit 134) or ran out of memory on: one validation, at compile time.
hw_case() { echo "$1" >"$work/hw-$2.json"; expect 1 "$3" -- "$aot" compile "$models/relu.onnxtxt" --hw "$work/hw-$2.json" -o "$work/b"; }
hw_case '{"spm_bytes": 1000003}' spm "'spm_bytes' must be a multiple of 256"
hw_case '{"batch_align_bits": 7}' align "'batch_align_bits' must be in [8, 65536] (bits)"
hw_case '{"batch_align_bits": 24}' align2 "'batch_align_bits' must be a power of two (8 or more)"
hw_case '{"ct_datapath_bits": 7}' ct "'ct_datapath_bits' must be in [64, 65536] (bits/cycle)"
hw_case '{"tile_count": 4294967295}' tiles "'tile_count' must be in [1, 1024] (tiles)"
hw_case '{"ddr_bank_bytes": 2147483648}' bank "'ddr_bank_bytes' must be in [64, 1048576] (bytes)"
hw_case '{"tile_count": 8}' mesh "'mesh_x' x 'mesh_y' must equal 'tile_count'"
hw_case '{"spm_bytes": -1}' negative "'spm_bytes' must be a non-negative integer that fits a uint64_t (bytes)"
expect 1 "the hardware config is not a regular file (a device or socket)" -- "$aot" compile "$models/relu.onnxtxt" --hw /dev/zero -o "$work/b"

# ---- command lines (exit 2)
expect 2 "--target gpu: expected cmodel or riscv" -- "$aot" compile "$models/relu.onnxtxt" --target gpu -o "$work/b"
"$aot" compile "$models/relu.onnxtxt" -o "$work/bundle" >/dev/null || { echo "FAIL: cannot compile relu"; exit 1; }
/usr/bin/python3 -c "import numpy; numpy.save('$work/x.npy', numpy.ones((2, 4), numpy.float32))"
expect 2 "--target gpu: expected cmodel or riscv" -- "$aot" run "$work/bundle" --target gpu --input "x=$work/x.npy" --out "$work/o"
expect 2 "expected NAME=FILE" -- "$aot" run "$work/bundle" --input "$work/x.npy" --out "$work/o"
expect 2 "input 'x' is given twice" -- "$aot" run "$work/bundle" --input "x=$work/x.npy" --input "x=$work/x.npy" --out "$work/o"
expect 2 "input 'x' is given twice" -- "$aot" reference "$models/relu.onnxtxt" --input "x=$work/x.npy" --input "x=$work/x.npy" --out "$work/o"
# --input-shape NAME=D0xD1x...: malformed values and repeated names are usage errors (2); a value the model
# contradicts is the model's (1, bad-inputs: the importer's lit tests have the rest)
expect 2 "--input-shape x: no NAME= (expected NAME=D0xD1x..., e.g. input=1x3x224x224)" -- "$aot" import "$models/relu.onnxtxt" --input-shape x
expect 2 "--input-shape =2x4: no NAME=" -- "$aot" compile "$models/relu.onnxtxt" --input-shape =2x4 -o "$work/b"
expect 2 "--input-shape x=2x: an extent is missing" -- "$aot" import "$models/relu.onnxtxt" --input-shape x=2x
expect 2 "--input-shape x=2,4: '2,4' is not an extent" -- "$aot" import "$models/relu.onnxtxt" --input-shape x=2,4
expect 2 "--input-shape x=-2x4: '-2' is not an extent" -- "$aot" reference "$models/relu.onnxtxt" --input-shape x=-2x4 --input "x=$work/x.npy" --out "$work/o"
expect 2 "--input-shape x=2x99999999999999999999: '99999999999999999999' is not an extent" -- "$aot" import "$models/relu.onnxtxt" --input-shape x=2x99999999999999999999
expect 2 "--input-shape x=2x4294967296: extent 4294967296 is larger than 2^31 - 1" -- "$aot" import "$models/relu.onnxtxt" --input-shape x=2x4294967296
expect 2 "--input-shape x=2x4: input 'x' is given twice" -- "$aot" test-onnx "$work" --input-shape x=2x4 --input-shape x=2x4
expect 2 "--input-shape is for ONNX models;" -- "$aot" compile "$models/wide-relu.mlir" --input-shape x=2x4 -o "$work/b"
expect 1 "--input-shape x=3x4: graph input 'x' is [2, 4]: its dim 0 is 2, not 3" -- "$aot" compile "$models/relu.onnxtxt" --input-shape x=3x4 -o "$work/b"
expect 1 "--input-shape y=2x4: the model has no graph input 'y' (its inputs: 'x')" -- "$aot" import "$models/relu.onnxtxt" --input-shape y=2x4
expect 0 "" -- "$aot" import "$models/relu.onnxtxt" --input-shape x=2x4
ln -s /dev/zero "$work/zero.npy"
expect 1 "the tensor file is not a regular file (a device or socket)" -- "$aot" reference "$models/relu.onnxtxt" --input "x=$work/zero.npy" --out "$work/o"

# ---- bundles: the untampered one runs; every file in the format's list is checked, and the manifest's own
# content against the digest model.h records (an edited order or shape gave silently wrong results)
expect 0 "" -- "$aot" run "$work/bundle" --input "x=$work/x.npy" --out "$work/o"
tamper() { # tamper NAME PYTHON-EDIT-OF-m: a copy of the bundle whose manifest m is edited
  rm -rf "$work/t-$1" && cp -r "$work/bundle" "$work/t-$1"
  /usr/bin/python3 - "$work/t-$1/manifest.json" "$2" <<'PY'
import json, sys
path, edit = sys.argv[1], sys.argv[2]
m = json.load(open(path))
exec(edit)
json.dump(m, open(path, "w"), indent=2)
PY
}
tamper nofiles 'm["files"] = {}'
expect 1 "corrupt manifest (\"files\" has no checksum of CMakeLists.txt)" -- "$aot" run "$work/t-nofiles" --input "x=$work/x.npy" --out "$work/o"
tamper nomain 'del m["files"]["main.c"]'
echo "int evil = 1;" >>"$work/t-nomain/main.c"
expect 1 "corrupt manifest (\"files\" has no checksum of main.c)" -- "$aot" run "$work/t-nomain" --input "x=$work/x.npy" --out "$work/o"
tamper extra 'm["files"]["evil.sh"] = "0"'
expect 1 "corrupt manifest (\"files\" lists 'evil.sh', not a bundle file)" -- "$aot" run "$work/t-extra" --input "x=$work/x.npy" --out "$work/o"
tamper order 'm["inputs"][0]["order"] = [1, 0]'
expect 1 "manifest.json: edited after compile (its digest is" -- "$aot" run "$work/t-order" --input "x=$work/x.npy" --out "$work/o"
tamper shape 'm["outputs"][0]["shape"] = [4, 2]'
expect 1 "manifest.json: edited after compile (its digest is" -- "$aot" run "$work/t-shape" --input "x=$work/x.npy" --out "$work/o"
cp -r "$work/bundle" "$work/t-mainc" && echo "int evil = 1;" >>"$work/t-mainc/main.c"
expect 1 "main.c is corrupt (checksum" -- "$aot" run "$work/t-mainc" --input "x=$work/x.npy" --out "$work/o"
cp -r "$work/bundle" "$work/deep-manifest"
cp "$work/deep.json" "$work/deep-manifest/manifest.json"
expect 1 "corrupt manifest: JSON nested more than 64 levels deep" -- "$aot" run "$work/deep-manifest" --input "x=$work/x.npy" --out "$work/o"
cp -r "$work/bundle" "$work/zero-consts"
rm -f "$work/zero-consts/consts.bin" && ln -s /dev/zero "$work/zero-consts/consts.bin"
expect 1 "is not a regular file (a device or socket)" -- "$aot" run "$work/zero-consts" --input "x=$work/x.npy" --out "$work/o"

# ---- report: a trace that is not a tx8 trace, or not of this bundle (16 tiles, one group)
/usr/bin/python3 "$here/../report/make_trace.py" "$work/bundle" "$work/trace.json" >/dev/null
expect 0 "" -- "$aot" report "$work/bundle" --trace "$work/trace.json" -o "$work/report.html"
expect 2 "--input, --inputs-dir and --target are for a run of the bundle, not with --trace" -- "$aot" report "$work/bundle" --trace "$work/trace.json" --target riscv -o "$work/r.html"
expect 1 "$work/none.json: cannot read the trace: No such file or directory" -- "$aot" report "$work/bundle" --trace "$work/none.json" -o "$work/r.html"
expect 1 "the trace is not a regular file (a device or socket)" -- "$aot" report "$work/bundle" --trace /dev/zero -o "$work/r.html"
expect 1 "manifest.json: not a tx8 trace (no \"otherData\" object)" -- "$aot" report "$work/bundle" --trace "$work/bundle/manifest.json" -o "$work/r.html"
echo '[{"ph":"X","pid":0,"tid":0,"ts":0,"dur":1}]' >"$work/chrome-array.json"
expect 1 "chrome-array.json: not a tx8 trace (not a JSON object at byte 0)" -- "$aot" report "$work/bundle" --trace "$work/chrome-array.json" -o "$work/r.html"
echo '{"otherData":{"format":"perfetto"},"traceEvents":[]}' >"$work/other-format.json"
expect 1 "other-format.json: not a tx8 trace (otherData.format is not \"tx8-trace\")" -- "$aot" report "$work/bundle" --trace "$work/other-format.json" -o "$work/r.html"
expect 1 "not a tx8 trace (not a JSON object at byte 0)" -- "$aot" report "$work/bundle" --trace "$models/relu.onnxtxt" -o "$work/r.html"
expect 1 "deep.json: corrupt trace: JSON nested more than 64 levels deep" -- "$aot" report "$work/bundle" --trace "$work/deep.json" -o "$work/r.html"
/usr/bin/python3 "$here/../report/make_trace.py" "$work/bundle" "$work/trace3.json" --tiles 3 >/dev/null
expect 1 "trace3.json: a trace of 3 tiles, but bundle $work/bundle runs on 16 (of the chip's 16): not a trace of this bundle" -- "$aot" report "$work/bundle" --trace "$work/trace3.json" -o "$work/r.html"
sed 's/"group":0/"group":7/g' "$work/trace.json" >"$work/trace-g7.json"
expect 1 "trace-g7.json: group 7 is not a group of bundle $work/bundle (it has 1): not a trace of this bundle" -- "$aot" report "$work/bundle" --trace "$work/trace-g7.json" -o "$work/r.html"
head -c 300 "$work/trace.json" >"$work/truncated.json"
expect 1 "truncated.json: not a tx8 trace (invalid JSON at byte" -- "$aot" report "$work/bundle" --trace "$work/truncated.json" -o "$work/r.html"
expect 1 "corrupt manifest (\"files\" lists 'evil.sh', not a bundle file)" -- "$aot" report "$work/t-extra" --trace "$work/trace.json" -o "$work/r.html"
[ -e "$work/r.html" ] && { echo "FAIL: a failed report left $work/r.html"; failures=$((failures + 1)); }

# ---- replacing a bundle: never deletes what the user put in it; -o at a link writes where it points
cp -r "$work/bundle" "$work/mine" && cp "$work/x.npy" "$work/mine/y.npy"
expect 1 "holds files that are not part of a bundle (y.npy); not replacing it: move them out first" -- "$aot" compile "$models/relu.onnxtxt" -o "$work/mine"
[ -e "$work/mine/y.npy" ] || { echo "FAIL: the user's file went"; failures=$((failures + 1)); }
mkdir "$work/real" && ln -s "$work/real" "$work/link"
expect 0 "" -- "$aot" compile "$models/relu.onnxtxt" -o "$work/link"
expect 0 "" -- "$aot" compile "$models/relu.onnxtxt" -o "$work/link"
{ [ -L "$work/link" ] && [ -e "$work/real/manifest.json" ]; } || { echo "FAIL: -o at a link replaced the link"; failures=$((failures + 1)); }

# A bundle its user may not write to builds in a directory of theirs (the error used to name a log file it could
# not create). Needs a second user: as root, run it as nobody when nobody can read the tools and the bundle.
cp -r "$work/bundle" "$work/readonly" && rm -rf "$work/readonly"/build-* && chmod -R a+rX,a-w "$work/readonly"
chmod a+rx "$work" && chmod a+r "$work/x.npy" && mkdir -p "$work/readonly-out" && chmod a+rwx "$work/readonly-out"
if [ "$(id -u)" -eq 0 ] && su nobody -s /bin/sh -c "test -x '$aot' && test -r '$work/readonly/manifest.json'" 2>/dev/null; then
  expect 0 "" -- su nobody -s /bin/sh -c "'$aot' run '$work/readonly' --input 'x=$work/x.npy' --out '$work/readonly-out/o'"
else
  echo "note: read-only bundle case skipped (needs root and a user 'nobody' who can read $aot)"
fi
chmod -R u+w "$work/readonly"

# ---- concurrent compiles into one bundle directory: they take turns, each succeeds, the bundle is always
# complete and nothing is left beside it (1 of 360 pairs once left a directory holding only consts.bin).
mkdir -p "$work/race"
for i in $(seq 1 30); do
  "$aot" compile "$models/relu.onnxtxt" -o "$work/race/b" >/dev/null 2>"$work/race/e1" & p1=$!
  "$aot" compile "$models/relu.onnxtxt" -o "$work/race/b" >/dev/null 2>"$work/race/e2" & p2=$!
  wait $p1; r1=$?; wait $p2; r2=$?
  cases=$((cases + 1))
  if [ $r1 -ne 0 ] || [ $r2 -ne 0 ] || [ ! -e "$work/race/b/manifest.json" ] || [ ! -e "$work/race/b/main.c" ]; then
    echo "FAIL: concurrent compiles, pair $i: exits $r1 $r2, bundle: $(ls "$work/race/b" 2>&1 | tr '\n' ' ')"
    cat "$work/race/e1" "$work/race/e2"
    failures=$((failures + 1))
  fi
done
leftovers=$(ls "$work/race" | grep -v -x -e b -e e1 -e e2)
[ -z "$leftovers" ] || { echo "FAIL: concurrent compiles left $leftovers"; failures=$((failures + 1)); }

echo "bad inputs: $cases cases, $failures failed"
[ "$failures" -eq 0 ]
