#!/usr/bin/env bash
# hw-config.sh TX8_AOT MAKE_SCRIPT WORK_DIR WITH_RISCV(0|1)
# One hardware config from --hw to the run: the demo CNN compiled for a chip with another batch alignment (4096
# bits), a 64 KiB SPM and a 2x2 mesh of 4 tiles. The module carries the config (tx8be.hw_config), the passes
# plan with it (every SPM buffer on a 512-byte boundary, every group within 64 KiB), the manifest and main.c
# say the same numbers, the run packs inputs and reports cycles with them, and the answer matches the
# reference on the cmodel (and bit-identically under QEMU).
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/model" >/dev/null
cat >"$work/hw.json" <<'JSON'
{"batch_align_bits": 4096, "spm_bytes": 65536, "tile_count": 4, "mesh_x": 2, "mesh_y": 2}
JSON
"$aot" compile "$work/model/model.onnx" --hw "$work/hw.json" --dump-ir "$work/after.mlir" -o "$work/bundle"
/usr/bin/python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
ir = open(work + "/after.mlir").read()
attr = re.search(r"tx8be\.hw_config = \{([^}]*)\}", ir)
assert attr, "the module does not carry tx8be.hw_config"
fields = dict((k, int(v)) for k, v in re.findall(r"(\w+) = (\d+) : i64", attr.group(1)))
want = {"batch_align_bits": 4096, "spm_bytes": 65536, "tile_count": 4, "mesh_x": 2, "mesh_y": 2}
assert fields == want, fields
addrs = [int(a) for m in re.findall(r"mem_addr = \[([^\]]*)\]", ir) for a in m.split(",") if a.strip()]
assert addrs and all(a % 512 == 0 for a in addrs), "SPM buffers not on 512-byte boundaries: %s" % addrs
sizes = [int(s) for s in re.findall(r"spm_alloc_size = (\d+)", ir)]
assert sizes and max(sizes) <= 65536, sizes
hw = json.load(open(work + "/bundle/manifest.json"))["hardware"]
assert all(hw[k] == v for k, v in want.items()), hw
main = open(work + "/bundle/main.c").read()
for k, v in want.items():
    assert re.search(r"cfg\.%s = %d;" % (k, v), main), "main.c does not set cfg.%s = %d" % (k, v)
print("hw-config: module, passes (%d SPM buffers on 512-byte boundaries, groups <= %d bytes), manifest and "
      "main.c agree" % (len(addrs), max(sizes)))
PY
"$aot" reference "$work/model/model.onnx" --inputs-dir "$work/model/test_data_set_0" --out "$work/ref" >/dev/null
"$aot" run "$work/bundle" --target cmodel --inputs-dir "$work/model/test_data_set_0" --out "$work/cmodel"
/usr/bin/python3 "$(dirname "$0")/close-to-reference.py" "hw-config: the cmodel run" "$work/ref/probs.npy" \
  "$work/cmodel/probs.npy"
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/bundle" --target riscv --inputs-dir "$work/model/test_data_set_0" --out "$work/riscv"
  cmp "$work/cmodel/probs.npy" "$work/riscv/probs.npy"
  echo "hw-config: QEMU bit-identical to the cmodel"
fi
