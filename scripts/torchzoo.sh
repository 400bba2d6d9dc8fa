#!/usr/bin/env bash
# torchzoo.sh [--size small|full] [--target cmodel|riscv] [--models PATTERN,...] [--aot PATH] [--hw HW_JSON]
#             [--work DIR] [--timeout SECONDS] [--mem-gb N] [--no-bf16]
# Runs the torch zoo (models/make_torch_zoo.py: real torch.onnx.export files, issue 33) through tx8-aot at the
# default chip and prints one row per model:
#   opset     the ONNX opset the model was exported at
#   compile   wall time of `tx8-aot compile` (fp32)
#   run       wall time of `tx8-aot run` (building the bundle and running it on the target)
#   fp32 / bf16 cycles   simulated cycles `tx8-aot run` reports (bf16: compiled with --precision bf16; "-" when
#             that compile or run failed, the reason in WORK/<model>/bf16-*.log)
#   status    ok (every output within tolerance of PyTorch's, as tests/torchzoo/torchzoo_compare.py checks),
#             "compile error: <the compiler's first error line>", "run error: <the first fault line>",
#             "mismatch: <the first output beyond tolerance>"; then for bf16 "bf16 ok" when every output is within
#             the bf16 rule (torchzoo_compare.py --precision bf16), else "bf16 mismatch: ..." / "bf16 error: ..."
# Defaults: --size small, --target cmodel, every variant, build/bin/tx8-aot, the default hardware config,
# WORK = build/torchzoo-<size>, 1800 s per step, compile limited to 8 GB of address space (ulimit -v). One model at
# a time. Exits 0 (the table is the result); 77 when PyTorch / torchvision cannot be imported.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
size=small target=cmodel models='*' aot=$root/build/bin/tx8-aot hw= work= timeout_s=1800 mem_gb=8 bf16=1
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
    --no-bf16) bf16=0 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "torchzoo.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case $size in full|small) ;; *) echo "torchzoo.sh: --size full|small" >&2; exit 2 ;; esac
case $target in cmodel|riscv) ;; *) echo "torchzoo.sh: --target cmodel|riscv" >&2; exit 2 ;; esac
if ! /usr/bin/python3 -c 'import torch, torchvision' 2>/dev/null; then
  echo "SKIP: PyTorch / torchvision not importable by /usr/bin/python3 (python3-torch, python3-torchvision)"
  exit 77
fi
work=${work:-$root/build/torchzoo-$size}
mkdir -p "$work"

echo "tx8-aot torch zoo: size $size, target $target, $("$aot" --version | head -n 1)${hw:+, hw $hw ($(tr -d ' \n' <"$hw"))}"
echo "torch $(/usr/bin/python3 -c 'import torch, torchvision; print(torch.__version__, "torchvision", torchvision.__version__)'); work dir $work"
/usr/bin/python3 "$root/models/make_torch_zoo.py" "$work/zoo" --size "$size" --models "$models" >"$work/names.txt"

# limited CMD...: CMD under the --mem-gb address-space limit and the --timeout
limited() { (ulimit -v $((mem_gb * 1024 * 1024)) && exec timeout "$timeout_s" "$@"); }
# first_error LOG: a fault's line, else the first error line of a log (with the line after it when it ends in
# ':', as "cannot import the model; 1 problem:" does; the limit named when it was hit), the paths made short
first_error() {
  local line
  line=$(grep -m1 -o 'tx8 fault:.*' "$1" || grep -m1 -i -A1 'error\|what()\|bad_alloc' "$1" ||
    head -n 1 "$1")
  case $line in *:$'\n'*) line=$(echo "$line" | tr '\n' ' ' | tr -s ' ') ;; *) line=${line%%$'\n'*} ;; esac
  line=$(echo "$line" | sed -e 's/^tx8-aot: error: //' -e "s#$work/zoo/[^ ]*/##g" -e 's/model\.onnx: //g' -e 's/ *$//')
  case $line in *"out of memory"*|*bad_alloc*) line="$line (the --mem-gb $mem_gb limit)" ;; esac
  echo "$line"
}
# timed LOG CMD...: runs CMD with its output in LOG; sets $secs to its wall time; returns its status
timed() {
  local log=$1 t0 rc=0
  shift
  t0=${EPOCHREALTIME//[!0-9]/}
  "$@" >"$log" 2>&1 || rc=$?
  t0=$(((${EPOCHREALTIME//[!0-9]/} - t0) / 100000)) # tenths of a second
  secs=$((t0 / 10)).$((t0 % 10))
  [ -s "$log" ] || [ "$rc" != 124 ] || echo "error: timeout after $timeout_s s" >"$log"
  return $rc
}
cycles_of() { sed -n 's/.* \([0-9][0-9]*\) simulated cycles.*/\1/p' "$1" 2>/dev/null | head -n 1; }

printf '%-30s %5s %9s %7s %12s %12s  %s\n' model opset "compile s" "run s" "fp32 cycles" "bf16 cycles" status
n_ok=0 n_all=0 n_bf16=0
while read -r m; do
  n_all=$((n_all + 1))
  d=$work/$m
  rm -rf "$d" && mkdir -p "$d"
  model=$work/zoo/$m/model.onnx
  data=$work/zoo/$m/test_data_set_0
  opset=$(/usr/bin/python3 -c 'import onnx, sys; m = onnx.load(sys.argv[1], load_external_data=False)
print(next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")))' "$model")
  ctime=- rtime=- cycles=- bcycles=- status=ok
  if ! timed "$d/compile.log" limited "$aot" compile "$model" -o "$d/bundle" ${hw:+--hw "$hw"}; then
    status="compile error: $(first_error "$d/compile.log")"
  fi
  ctime=$secs
  if [ "$status" = ok ]; then
    if ! timed "$d/run.log" timeout "$timeout_s" "$aot" run "$d/bundle" --target "$target" --inputs-dir "$data" \
        --out "$d/out"; then
      status="run error: $(first_error "$d/run.log")"
    fi
    rtime=$secs
    cycles=$(cycles_of "$d/run.log")
    if [ "$status" = ok ] && ! /usr/bin/python3 "$root/tests/torchzoo/torchzoo_compare.py" "$m" "$data" "$d/out" \
        >"$d/compare.log" 2>&1; then
      status="mismatch: $(grep -m1 -v ' ok$' "$d/compare.log" | sed "s/^$m: //")"
    fi
  fi
  if [ "$bf16" = 1 ]; then
    if timed "$d/bf16-compile.log" limited "$aot" compile "$model" -o "$d/bundle-bf16" --precision bf16 \
        ${hw:+--hw "$hw"} &&
      timed "$d/bf16-run.log" timeout "$timeout_s" "$aot" run "$d/bundle-bf16" --target "$target" \
        --inputs-dir "$data" --out "$d/out-bf16"; then
      bcycles=$(cycles_of "$d/bf16-run.log")
      if /usr/bin/python3 "$root/tests/torchzoo/torchzoo_compare.py" "$m" "$data" "$d/out-bf16" --precision bf16 \
          >"$d/compare-bf16.log" 2>&1; then
        status="$status, bf16 ok"
      else
        status="$status, bf16 mismatch: $(grep -m1 -v ' ok$' "$d/compare-bf16.log" | sed "s/^$m: //")"
      fi
    else
      blog=$d/bf16-compile.log
      [ -e "$d/bf16-run.log" ] && blog=$d/bf16-run.log
      status="$status, bf16 error: $(first_error "$blog")"
    fi
  fi
  case $status in ok|"ok, "*) n_ok=$((n_ok + 1)) ;; esac
  case $status in *"bf16 ok") n_bf16=$((n_bf16 + 1)) ;; esac
  printf '%-30s %5s %9s %7s %12s %12s  %s\n' "$m" "$opset" "$ctime" "$rtime" "${cycles:--}" "${bcycles:--}" \
    "$status"
done <"$work/names.txt"
if [ "$bf16" = 1 ]; then
  echo "$n_ok of $n_all models ok in fp32, $n_bf16 in bf16"
else
  echo "$n_ok of $n_all models ok"
fi
