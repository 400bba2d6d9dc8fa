#!/usr/bin/env bash
# Seed corpus for the fuzzers (fuzz/README.md), from the test data: one directory per fuzzer under OUTDIR, plus a
# libFuzzer dictionary for the JSON fuzzers (OUTDIR/<fuzzer>.dict). Deterministic; replaces OUTDIR's seeds.
#   fuzz/make-corpus.sh OUTDIR [TX8_AOT]
# TX8_AOT (default: build-asan/bin/tx8-aot, else build/bin/tx8-aot) compiles the models whose manifest.json are the
# fuzz_manifest seeds; it must come from this source tree (a manifest names its compiler's version).
#   fuzz_onnx_import   libonnx-testdata's node/*/model.onnx and small pytorch-converted models, and the hand-written
#                      .onnxtxt models of tests/ as binary protobuf
#   fuzz_tensorproto   the .pb files of node/*/test_data_set_0 (at most 4 KiB each, duplicates dropped)
#   fuzz_npy           .npy files written by numpy: every dtype the reader knows and some it refuses, versions 1.0,
#                      2.0 and 3.0, Fortran order, scalars, empty tensors; and some test data converted to .npy
#   fuzz_hw_config     --hw JSON: the defaults, each field at its minimum and maximum, the tests' samples
#   fuzz_manifest      manifest.json of bundles compiled by TX8_AOT (relu, a conv with constants, batchnorm, another
#                      hardware config)
#   fuzz_trace         tx8 traces (tests/report/make_trace.py) of the fuzz_manifest bundles, in both engine orders
#   fuzz_tx8be_parser  the .mlir files under tests/lit, split at their "// -----" markers
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 OUTDIR [TX8_AOT]" >&2
  exit 2
fi
src=$(cd "$(dirname "$0")/.." && pwd)
out=$1
aot=${2:-}
if [ -z "$aot" ]; then
  for candidate in "$src/build-asan/bin/tx8-aot" "$src/build/bin/tx8-aot"; do
    [ -x "$candidate" ] && { aot=$candidate; break; }
  done
fi
[ -n "$aot" ] && [ -x "$aot" ] || { echo "make-corpus: no tx8-aot (give TX8_AOT)" >&2; exit 2; }
data=/usr/share/libonnx-testdata/data
[ -d "$data/node" ] || { echo "make-corpus: no ONNX test data in $data (libonnx-testdata)" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
for f in fuzz_onnx_import fuzz_tensorproto fuzz_npy fuzz_hw_config fuzz_manifest fuzz_trace fuzz_tx8be_parser; do
  mkdir -p "$out/$f"
done

# ---- fuzz_manifest: real bundles (tx8-aot may be a sanitized build: the same options as scripts/sanitize.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_container_overflow=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo '{"spm_bytes": 65536, "batch_align_bits": 4096, "tile_count": 4, "mesh_x": 2, "mesh_y": 2}' >"$work/hw.json"
manifest() { # manifest NAME MODEL [tx8-aot compile options]
  local name=$1 model=$2
  shift 2
  "$aot" compile "$model" "$@" -o "$work/$name" >/dev/null
  cp "$work/$name/manifest.json" "$out/fuzz_manifest/$name.json"
  /usr/bin/python3 "$src/tests/report/make_trace.py" "$work/$name" "$out/fuzz_trace/$name.json" >/dev/null
  /usr/bin/python3 "$src/tests/report/make_trace.py" "$work/$name" "$out/fuzz_trace/$name-brief.json" \
    --engine-order brief --seed 2 >/dev/null
}
manifest relu "$src/tests/bad-inputs/models/relu.onnxtxt"
manifest conv2d "$data/pytorch-converted/test_Conv2d/model.onnx"
manifest batchnorm "$data/node/test_batchnorm_example/model.onnx"
manifest softmax "$data/pytorch-converted/test_Softmax/model.onnx"
manifest conv2d-hw "$data/pytorch-converted/test_Conv2d/model.onnx" --hw "$work/hw.json"

/usr/bin/python3 - "$src" "$data" "$out" <<'PY'
import glob, hashlib, json, os, re, sys
import numpy as np
import onnx
import onnx.numpy_helper
from google.protobuf import text_format

src, data, out = sys.argv[1:]

def put(fuzzer, name, blob):
    if isinstance(blob, str):
        blob = blob.encode()
    with open(os.path.join(out, fuzzer, name), 'wb') as f:
        f.write(blob)

# ---- fuzz_onnx_import
for path in sorted(glob.glob(data + '/node/*/model.onnx')):
    put('fuzz_onnx_import', os.path.basename(os.path.dirname(path)) + '.onnx', open(path, 'rb').read())
for path in sorted(glob.glob(data + '/pytorch-converted/*/model.onnx')):
    if os.path.getsize(path) <= 64 * 1024:
        put('fuzz_onnx_import', 'pc_' + os.path.basename(os.path.dirname(path)) + '.onnx', open(path, 'rb').read())
for path in sorted(glob.glob(src + '/tests/**/*.onnxtxt', recursive=True)):
    model = onnx.ModelProto()
    try:
        text_format.Parse(open(path).read(), model)
    except text_format.ParseError:
        continue  # a bad-inputs case that is not even text format
    rel = os.path.relpath(path, src + '/tests').replace('/', '_')
    put('fuzz_onnx_import', rel[:-len('.onnxtxt')] + '.onnx', model.SerializeToString())

# ---- fuzz_tensorproto: distinct small .pb files
seen = set()
for path in sorted(glob.glob(data + '/node/*/test_data_set_0/*.pb')):
    blob = open(path, 'rb').read()
    digest = hashlib.sha1(blob).hexdigest()
    if len(blob) > 4096 or digest in seen:
        continue
    seen.add(digest)
    test = os.path.basename(os.path.dirname(os.path.dirname(path)))
    put('fuzz_tensorproto', test + '_' + os.path.basename(path), blob)

# ---- fuzz_npy
rng = np.random.default_rng(0)
def npy(name, array, version=None, fortran=False):
    path = os.path.join(out, 'fuzz_npy', name + '.npy')
    with open(path, 'wb') as f:
        a = np.asfortranarray(array) if fortran else array
        np.lib.format.write_array(f, a, version=version, allow_pickle=False)
for dt in ['<f4', '<f2', '<f8', '|i1', '|u1', '<i4', '<i8', '|b1', '<u2', '>f4', '<i2', '<u4', '<c8']:
    a = rng.integers(-3, 4, size=(2, 3)).astype(dt)
    npy('dtype_' + dt.replace('<', 'le_').replace('>', 'be_').replace('|', ''), a)
npy('scalar', np.array(1.5, np.float32))
npy('empty', np.zeros((0, 3), np.float32))
npy('vector', np.arange(7, dtype=np.float32))
npy('rank4', rng.standard_normal((1, 2, 3, 2)).astype(np.float32))
npy('v2', np.ones((2, 2), np.float32), version=(2, 0))
npy('v3', np.ones((2, 2), np.float32), version=(3, 0))
npy('fortran', np.arange(6, dtype=np.float32).reshape(2, 3), fortran=True)
npy('wide_header', np.zeros((1,) * 20, np.float32))
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"  # version 2.0: a header over 64 KiB
header += b' ' * (70000 - len(header) - 12 - 1) + b'\n'
put('fuzz_npy', 'long_header.npy', b'\x93NUMPY\x02\x00' + len(header).to_bytes(4, 'little') + header + b'\0' * 8)
count = 0
for path in sorted(glob.glob(data + '/node/*/test_data_set_0/input_0.pb')):
    if count >= 60 or os.path.getsize(path) > 4096:
        continue
    t = onnx.TensorProto()
    t.ParseFromString(open(path, 'rb').read())
    try:
        a = onnx.numpy_helper.to_array(t)
    except Exception:
        continue
    if a.dtype.kind in 'OUS':
        continue
    npy('node_' + os.path.basename(os.path.dirname(os.path.dirname(path))), a)
    count += 1

# ---- fuzz_hw_config: hw_config.def's fields (name, default, min, max)
fields = re.findall(r'^TX8_HW\(\s*\w+,\s*(\w+),\s*(\d+),\s*(\d+),\s*(\d+),',
                    open(src + '/hal/include/tx8/hw_config.def').read(), re.M)
defaults = {name: int(d) for name, d, lo, hi in fields}
put('fuzz_hw_config', 'empty.json', '{}\n')
put('fuzz_hw_config', 'defaults.json', json.dumps(defaults, indent=2) + '\n')
for name, d, lo, hi in fields:
    put('fuzz_hw_config', name + '_min.json', json.dumps({name: int(lo)}))
    put('fuzz_hw_config', name + '_max.json', json.dumps({name: int(hi)}))
samples = ['{"spm_bytes": 1048576}', '{"spm_bytes": 1000003}', '{"batch_align_bits": 7}', '{"batch_align_bits": 24}',
           '{"ct_datapath_bits": 7}', '{"tile_count": 4294967295}', '{"ddr_bank_bytes": 2147483648}',
           '{"tile_count": 8}', '{"spm_bytes": -1}', '{"spm_bytes": 1.5}', '{"spm_bytes": "1"}', '[1, 2]',
           '{"batch_align_bits": 4096, "spm_bytes": 65536, "tile_count": 4, "mesh_x": 2, "mesh_y": 2}',
           '{"no_such_field": 1}', '[' * 70 + ']' * 70]
for i, s in enumerate(samples):
    put('fuzz_hw_config', 'sample%d.json' % i, s + '\n')
tokens = ['"%s"' % name for name, *_ in fields] + ['{', '}', '[', ']', ':', ',', '"', 'true', 'false', 'null',
          '-1', '0', '1e3', '4294967296', '18446744073709551616', '\\u0000']
manifest_keys = set()
for path in glob.glob(out + '/fuzz_manifest/*.json'):
    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                manifest_keys.add(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            manifest_keys.add(v)
    walk(json.load(open(path)))
def write_dict(name, words):
    with open(os.path.join(out, name + '.dict'), 'w') as f:
        for w in sorted(set(words)):
            f.write('"%s"\n' % w.replace('\\', '\\\\').replace('"', '\\"'))
write_dict('fuzz_hw_config', tokens)
write_dict('fuzz_manifest', tokens + ['"%s"' % k for k in manifest_keys if len(k) <= 64])
trace_keys = set()
for path in glob.glob(out + '/fuzz_trace/*.json'):
    t = json.load(open(path))
    trace_keys.update(t.keys(), t['otherData'].keys(), t['otherData']['engines'])
    for e in t['traceEvents'][:200]:
        trace_keys.update(e.keys(), e.get('args', {}).keys(), [str(e.get('ph')), str(e.get('cat', '')), e['name']])
write_dict('fuzz_trace', tokens + ['"%s"' % k for k in trace_keys if len(k) <= 64])

# ---- fuzz_tx8be_parser: lit's .mlir inputs, one seed per split
for path in sorted(glob.glob(src + '/tests/lit/**/*.mlir', recursive=True)):
    rel = os.path.relpath(path, src + '/tests/lit').replace('/', '_')[:-len('.mlir')]
    parts = re.split(r'^// -----\s*$', open(path).read(), flags=re.M)
    for i, part in enumerate(parts):
        put('fuzz_tx8be_parser', '%s_%d.mlir' % (rel, i), part)
PY

for f in "$out"/*/; do
  printf 'make-corpus: %-18s %5d seeds\n' "$(basename "$f")" "$(find "$f" -type f | wc -l)"
done
