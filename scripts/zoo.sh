#!/usr/bin/env bash
# zoo.sh [--size full|small] [--target cmodel|riscv] [--models PATTERN,...] [--aot PATH] [--hw HW_JSON]
#        [--work DIR] [--timeout SECONDS] [--mem-gb N]
# Runs the model zoo (models/make_zoo.py) through tx8-aot and prints one row per model:
#   compile   wall time and peak RSS of `tx8-aot compile` (/usr/bin/time -f "%e %M")
#   consts    size of the bundle's consts.bin
#   cycles    simulated cycles `tx8-aot run` reports on the target
#   MACs      multiply-accumulates of Conv / Gemm / MatMul at batch 1 (models/zoo_numpy.py stats)
#   MAC/cyc   MACs / cycles, and that as a share of one tile's fp32 NE peak (ne_macs_per_cycle_fp32) and of the
#             chip's (tile_count tiles), from hal/include/tx8/hw_config.def or HW_JSON
#   status    ok (outputs within tolerance of the golden model and the golden model of the float64 forward, as
#             tests/zoo/zoo_compare.py checks), "compile error: <the compiler's first error line>", "run error: ...",
#             "reference error: ...", or "mismatch: <the first comparison that failed>"
# Defaults: --size small, --target cmodel, every variant, build/bin/tx8-aot, the default hardware config,
# WORK = build/zoo-<size>, 1800 s per step, compile and reference limited to 8 GB of address space (ulimit -v:
# bert2 at full size made the compiler grow past 23 GB before it gave up). Runs one model at a time. Exits 0
# (the table is the result).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=small target=cmodel models='*' aot=$root/build/bin/tx8-aot hw= work= timeout_s=1800 mem_gb=8
while [ $# -gt 0 ]; do
  case $1 in
    --size) size=$2; shift ;;
    --target) target=$2; shift ;;
    --models) models=$2; shift ;;
    --aot) aot=$2; shift ;;
    --hw) hw=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --work) work=$2; shift ;;
    --timeout) timeout_s=$2; shift ;;
    --mem-gb) mem_gb=$2; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "zoo.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case $size in full|small) ;; *) echo "zoo.sh: --size full|small" >&2; exit 2 ;; esac
case $target in cmodel|riscv) ;; *) echo "zoo.sh: --target cmodel|riscv" >&2; exit 2 ;; esac
work=${work:-$root/build/zoo-$size}
mkdir -p "$work"

# the peak: defaults from hw_config.def, overridden by the --hw file
read -r tile_peak tiles < <(/usr/bin/python3 - "$root/hal/include/tx8/hw_config.def" "$hw" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
val = {m.group(1): int(m.group(2)) for m in re.finditer(r"TX8_HW\(\s*\w+,\s*(\w+),\s*(\d+)", text)}
if sys.argv[2]:
    val.update(json.load(open(sys.argv[2])))
print(val["ne_macs_per_cycle_fp32"], val["tile_count"])
PY
)

echo "tx8-aot model zoo: size $size, target $target, $("$aot" --version | head -n 1)${hw:+, hw $hw ($(tr -d ' \n' <"$hw"))}"
echo "peak fp32: $tile_peak MAC/cycle per tile, $((tile_peak * tiles)) per chip ($tiles tiles); work dir $work"
/usr/bin/python3 "$root/models/make_zoo.py" "$work/zoo" --size "$size" --models "$models" >"$work/names.txt"

# limited CMD...: CMD under the --mem-gb address-space limit and the --timeout
limited() { (ulimit -v $((mem_gb * 1024 * 1024)) && exec timeout "$timeout_s" "$@"); }
# first_error LOG: the first error line of a log (the limit named when it was hit)
first_error() {
  local line
  line=$(grep -m1 -i 'error\|what()\|bad_alloc' "$1" | sed 's/^tx8-aot: error: //' || head -n 1 "$1")
  case $line in *"out of memory"*|*bad_alloc*) line="$line (the --mem-gb $mem_gb limit)" ;; esac
  echo "$line"
}

printf '%-24s %9s %8s %10s %13s %14s %8s %7s %7s  %s\n' model "compile s" "RSS MB" "consts MB" cycles MACs \
  "MAC/cyc" "%tile" "%chip" status
n_ok=0 n_all=0
while read -r m; do
  n_all=$((n_all + 1))
  d=$work/$m
  rm -rf "$d" && mkdir -p "$d"
  data=$work/zoo/$m/test_data_set_0
  macs=$(/usr/bin/python3 "$root/models/zoo_numpy.py" stats "$work/zoo/$m/model.onnx" | awk '{print $4}')
  ctime=- rss=- consts=- cycles=- status=ok
  if ! limited /usr/bin/time -o "$d/time.txt" -f "%e %M" \
      "$aot" compile "$work/zoo/$m/model.onnx" -o "$d/bundle" ${hw:+--hw "$hw"} >"$d/compile.log" 2>&1; then
    status="compile error: $(first_error "$d/compile.log")"
    [ -s "$d/compile.log" ] || status="compile error: timeout after $timeout_s s"
  fi
  if [ -s "$d/time.txt" ]; then
    read -r t k < <(grep -E '^[0-9.]+ [0-9]+$' "$d/time.txt" | tail -n 1)
    ctime=$t rss=$((k / 1024))
  fi
  if [ "$status" = ok ]; then
    consts=$(awk -v b="$(stat -c %s "$d/bundle/consts.bin")" 'BEGIN { printf "%.2f", b / 1048576 }')
    if ! limited "$aot" reference "$work/zoo/$m/model.onnx" --inputs-dir "$data" --out "$d/ref" \
        >"$d/reference.log" 2>&1; then
      status="reference error: $(first_error "$d/reference.log")"
    elif ! timeout "$timeout_s" "$aot" run "$d/bundle" --target "$target" --inputs-dir "$data" --out "$d/out" \
        >"$d/run.log" 2>&1; then
      status="run error: $(first_error "$d/run.log")"
      [ -s "$d/run.log" ] || status="run error: timeout after $timeout_s s"
    fi
    cycles=$(sed -n 's/.* \([0-9][0-9]*\) simulated cycles.*/\1/p' "$d/run.log" 2>/dev/null | head -n 1)
    cycles=${cycles:--}
    if [ "$status" = ok ] && ! /usr/bin/python3 "$root/tests/zoo/zoo_compare.py" "$m" "$d/ref" "$d/out" "$data" \
        >"$d/compare.log" 2>&1; then
      status="mismatch: $(grep -m1 -v ' ok$' "$d/compare.log" | sed "s/^$m: //")"
    fi
  fi
  [ "$status" = ok ] && n_ok=$((n_ok + 1))
  read -r mpc ptile pchip < <(awk -v m="$macs" -v c="$cycles" -v p="$tile_peak" -v t="$tiles" 'BEGIN {
    if (c == "-" || c == 0) { print "- - -"; exit }
    r = m / c; printf "%.1f %.1f%% %.2f%%\n", r, 100 * r / p, 100 * r / (p * t) }')
  printf '%-24s %9s %8s %10s %13s %14s %8s %7s %7s  %s\n' "$m" "$ctime" "$rss" "$consts" "$cycles" "$macs" "$mpc" \
    "$ptile" "$pchip" "$status"
done <"$work/names.txt"
echo "$n_ok of $n_all models ok"
