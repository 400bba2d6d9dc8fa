#!/usr/bin/env bash
# tiles.sh TX8_AOT MAKE_DEMO_CNN WORK_DIR RISCV(0|1) TESTDIR...
# --tiles 16 (the plan shards each group over the 4x4 mesh; tx8be-group-cost never shards a reduction dim, so
# every output element is the same sum in the same order) against --tiles 1: for the demo CNN and each test
# directory, the outputs are bit for bit the same, and the 16-tile plan is faster wherever the manifest says it
# shards a group. With RISCV=1 the 16-tile demo CNN also runs as firmware (16 harts under QEMU): the same bits and
# the same cycles as the cmodel (and so do a conv whose shared input tile 0 multicasts and a MatMul whose A and B
# boxes are multicast per step). Fused groups (tx8be-group-fuse) give the bits of one group per op, faster.
set -euo pipefail
aot=$1 make=$2 work=$3 riscv=$4
shift 4
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 "$make" "$work/demo" >/dev/null
# A 1x1 conv on a 7x7 map, 256 -> 512 channels: sharded by output channels, every tile reads the whole input,
# which tile 0 multicasts (LoadBox once, op_noc_copy).
/usr/bin/python3 "$(dirname "$make")/make_bench_models.py" "$work/shared" conv 1 256 7 7 512 1 1 1 0 --no-expected >/dev/null
# MatMuls sharded 4x4: the tiles of a mesh row read the same A boxes at every step, those of a column the same B
# boxes; one tile of each row and column multicasts them (LoadBox multicast, op_noc_copy_async), in lockstep.
# "gemm" runs 8 pipelined steps per tile, "gemm1" one step (small enough for QEMU).
/usr/bin/python3 "$(dirname "$make")/make_bench_models.py" "$work/gemm" matmul 512 512 512 --no-expected >/dev/null
/usr/bin/python3 "$(dirname "$make")/make_bench_models.py" "$work/gemm1" matmul 512 256 128 --no-expected >/dev/null
# A bf16 model (A, B, Y bf16): the MatMul's fp32 result is cast to bf16 in SPM (MatMul -> Cast, one group).
/usr/bin/python3 "$(dirname "$make")/make_bench_models.py" "$work/gemmbf" matmul-bf16 512 256 128 >/dev/null
cyc() { sed -n 's/^\(cmodel\|riscv\): \([0-9]*\) simulated cycles.*/\2/p' "$1"; }
sharded=0 fused=0
for dir in "$work/demo" "$work/shared" "$work/gemm" "$work/gemm1" "$work/gemmbf" "$@"; do
  name=$(basename "$dir")
  in="$dir/test_data_set_0"
  for t in 1 16; do
    "$aot" compile "$dir/model.onnx" -o "$work/$name-$t" --tiles $t >/dev/null
    "$aot" run "$work/$name-$t" --target cmodel --inputs-dir "$in" --out "$work/$name-$t-out" > "$work/$name-$t.log"
  done
  diff -r "$work/$name-1-out" "$work/$name-16-out" >/dev/null || { echo "$name: 16 tiles differ from 1"; exit 1; }
  # One group per op (--fuse=false): the same kernels in the same order, through DDR: the same bits.
  "$aot" compile "$dir/model.onnx" -o "$work/$name-nofuse" --tiles 16 --fuse=false >/dev/null
  "$aot" run "$work/$name-nofuse" --target cmodel --inputs-dir "$in" --out "$work/$name-nofuse-out" > "$work/$name-nofuse.log"
  diff -r "$work/$name-16-out" "$work/$name-nofuse-out" >/dev/null || { echo "$name: fused groups differ from unfused"; exit 1; }
  if grep -q '"op": "[A-Za-z_]*+' "$work/$name-16/manifest.json"; then
    fused=$((fused + 1))
    [ "$(cyc "$work/$name-16.log")" -lt "$(cyc "$work/$name-nofuse.log")" ] || { echo "$name: fused is not faster"; exit 1; }
  fi
  c1=$(cyc "$work/$name-1.log") c16=$(cyc "$work/$name-16.log")
  if /usr/bin/python3 -c 'import json, sys; sys.exit(0 if any(g.get("tiles", 1) > 1 for g in json.load(open(sys.argv[1]))["groups"]) else 1)' "$work/$name-16/manifest.json"; then
    sharded=$((sharded + 1))
    [ "$c16" -lt "$c1" ] || { echo "$name: sharded on 16 tiles but $c16 cycles >= 1 tile's $c1"; exit 1; }
  fi
  echo "$name: 1 tile $c1 cycles, 16 tiles $c16 cycles, outputs identical"
done
[ "$sharded" -gt 0 ] || { echo "no model had a sharded group"; exit 1; }
[ "$fused" -gt 0 ] || { echo "no model had a fused group"; exit 1; }
echo "$fused models with fused groups: the same bits as one group per op, and faster"
# --profile: one "tx8: group G cycles C" line per group, the same outputs.
"$aot" compile "$work/demo/model.onnx" -o "$work/demo-prof" --tiles 16 --profile >/dev/null
"$aot" run "$work/demo-prof" --target cmodel --inputs-dir "$work/demo/test_data_set_0" --out "$work/demo-prof-out" \
  > "$work/demo-prof.log"
diff -r "$work/demo-16-out" "$work/demo-prof-out" >/dev/null || { echo "demo: --profile changed the outputs"; exit 1; }
groups=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["groups"]))' "$work/demo-prof/manifest.json")
[ "$(grep -c '^tx8: group [0-9]* cycles [0-9]*$' "$work/demo-prof.log")" = "$groups" ] || { echo "demo: --profile lines"; exit 1; }
echo "demo --profile: $groups group lines"
grep -q op_noc_copy "$work/shared-16/main.c" || { echo "shared: no multicast of the shared input"; exit 1; }
# Against float64 rounded to bf16: within a bf16 ulp or two (the device rounds its fp32 sum once).
"$aot" test-onnx "$work/gemmbf" --target cmodel --tiles 16 --rtol 8e-3 --atol 0 > "$work/gemmbf-test.log" ||
  { cat "$work/gemmbf-test.log"; echo "gemmbf: not close to the reference"; exit 1; }
grep -q 'tx8be.MatMul "matmul" (onnx.MatMul) -> tx8be.Cast' "$work/gemmbf-16/main.c" || { echo "gemmbf: Cast not fused"; exit 1; }
for g in gemm gemm1; do
  grep -q op_noc_copy_async "$work/$g-16/main.c" || { echo "$g: no per-step multicast"; exit 1; }
done
# Unpipelined (--sw-pipeline=false): each step's multicast, a barrier, the compute, a barrier: the same bits.
"$aot" compile "$work/gemm/model.onnx" -o "$work/gemm-sync" --tiles 16 --sw-pipeline=false >/dev/null
grep -q 'op_noc_copy(&' "$work/gemm-sync/main.c" || { echo "gemm-sync: no per-step multicast"; exit 1; }
"$aot" run "$work/gemm-sync" --target cmodel --inputs-dir "$work/gemm/test_data_set_0" --out "$work/gemm-sync-out" \
  > "$work/gemm-sync.log"
diff -r "$work/gemm-1-out" "$work/gemm-sync-out" >/dev/null || { echo "gemm-sync: differs from 1 tile"; exit 1; }
echo "per-step multicast: pipelined and unpipelined on 16 tiles = 1 tile, bit for bit"
if [ "$riscv" = 1 ]; then
  "$aot" run "$work/gemm1-16" --target riscv --inputs-dir "$work/gemm1/test_data_set_0" --out "$work/gemm1-16-rv" \
    > "$work/gemm1-16-rv.log"
  diff -r "$work/gemm1-16-out" "$work/gemm1-16-rv" >/dev/null || { echo "gemm1: riscv differs from cmodel"; exit 1; }
  [ "$(cyc "$work/gemm1-16.log")" = "$(cyc "$work/gemm1-16-rv.log")" ] || { echo "gemm1: riscv cycles differ"; exit 1; }
  echo "per-step multicast on 16 tiles: riscv = cmodel, bits and cycles"
  "$aot" run "$work/shared-16" --target riscv --inputs-dir "$work/shared/test_data_set_0" --out "$work/shared-16-rv" \
    > "$work/shared-16-rv.log"
  diff -r "$work/shared-16-out" "$work/shared-16-rv" >/dev/null || { echo "shared: riscv differs from cmodel"; exit 1; }
  [ "$(cyc "$work/shared-16.log")" = "$(cyc "$work/shared-16-rv.log")" ] || { echo "shared: riscv cycles differ"; exit 1; }
  echo "shared input multicast on 16 tiles: riscv = cmodel, bits and cycles"
  "$aot" run "$work/demo-16" --target riscv --inputs-dir "$work/demo/test_data_set_0" --out "$work/demo-16-rv" \
    > "$work/demo-16-rv.log"
  diff -r "$work/demo-16-out" "$work/demo-16-rv" >/dev/null || { echo "demo: riscv differs from cmodel"; exit 1; }
  [ "$(cyc "$work/demo-16.log")" = "$(cyc "$work/demo-16-rv.log")" ] || { echo "demo: riscv cycles differ"; exit 1; }
  echo "demo on 16 tiles: riscv = cmodel, bits and cycles"
fi
