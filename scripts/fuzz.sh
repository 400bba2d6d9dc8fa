#!/usr/bin/env bash
# Runs the libFuzzer fuzzers (fuzz/README.md) for SECONDS each, one per core at a time, and says what they found.
#   scripts/fuzz.sh NAME[,NAME...]|all SECONDS [BUILD_DIR]     NAME: fuzz_npy, fuzz_onnx_import, ... (all: every one)
# BUILD_DIR (default build-asan) is the clang ASan+UBSan tree of scripts/sanitize.sh: configured by it when missing,
# then only the fuzzers are built. Seeds come from fuzz/make-corpus.sh (into BUILD_DIR/fuzz/seeds, once); what a run
# finds goes into BUILD_DIR/fuzz/corpus/NAME, kept for the next run. A crash, leak, timeout (10 s) or out-of-memory
# (2 GiB) input is written to BUILD_DIR/fuzz/artifacts/NAME/, the log to BUILD_DIR/fuzz/logs/NAME.log.
# Prints, per fuzzer: executions (and per second), corpus size, and whether it found something. Exit 1 if any did.
# Extra libFuzzer flags: TX8_FUZZ_FLAGS="-jobs=2 ..." .
set -euo pipefail
cd "$(dirname "$0")/.."
ALL=(fuzz_npy fuzz_tensorproto fuzz_hw_config fuzz_manifest fuzz_trace fuzz_tx8be_parser fuzz_onnx_import)
if [ $# -lt 2 ] || [ $# -gt 3 ] || ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -lt 1 ]; then
  echo "usage: $0 NAME[,NAME...]|all SECONDS [BUILD_DIR]   (NAME: ${ALL[*]})" >&2
  exit 2
fi
if [ "$1" = all ]; then
  names=("${ALL[@]}")
else
  IFS=, read -r -a names <<<"$1"
  for name in "${names[@]}"; do
    [[ " ${ALL[*]} " == *" $name "* ]] || { echo "fuzz: no fuzzer '$name' (${ALL[*]})" >&2; exit 2; }
  done
fi
seconds=$2
BUILD_DIR=${3:-build-asan}

[ -f "$BUILD_DIR/build.ninja" ] || scripts/sanitize.sh --configure-only "$BUILD_DIR"
grep -q '^TX8_FUZZ:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" || {
  echo "fuzz: $BUILD_DIR is not configured with -DTX8_FUZZ=ON (scripts/sanitize.sh makes such a tree)" >&2
  exit 2
}
cmake --build "$BUILD_DIR" -j "$(nproc)" --target tx8-aot "${names[@]}"

fz=$BUILD_DIR/fuzz
if [ ! -f "$fz/seeds/.done" ]; then
  fuzz/make-corpus.sh "$fz/seeds" "$BUILD_DIR/bin/tx8-aot"
  touch "$fz/seeds/.done"
fi

# As in scripts/sanitize.sh: the Debian LLVM/MLIR/protobuf libraries are not instrumented (container-overflow
# annotations across that boundary give false reports).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_container_overflow=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One fuzzer per core at a time (TX8_FUZZ_JOBS, default nproc): each still fuzzes for SECONDS, the stage takes
# about SECONDS x fuzzers / cores.
fuzz_one() {
  local name=$1 corpus=$fz/corpus/$1 artifacts=$fz/artifacts/$1 log=$fz/logs/$1.log
  mkdir -p "$corpus" "$artifacts" "$fz/logs"
  local flags=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -close_fd_mask=3
               -artifact_prefix="$artifacts/")
  [ -f "$fz/seeds/$name.dict" ] && flags+=(-dict="$fz/seeds/$name.dict")
  local before after rc=0 execs rate size result what top art
  before=$(find "$artifacts" -type f | wc -l)
  # shellcheck disable=SC2086  # TX8_FUZZ_FLAGS is a list of flags
  "$BUILD_DIR/bin/$name" "${flags[@]}" ${TX8_FUZZ_FLAGS:-} "$corpus" "$fz/seeds/$name" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  # libFuzzer's corpus at the end: the seeds that add coverage plus what it found (the last "corp: N/SIZE")
  size=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -1 | sed 's/corp: //' || true)
  after=$(find "$artifacts" -type f | wc -l)
  if [ "$rc" -eq 0 ] && [ "$after" -eq "$before" ]; then
    result="ok"
  else
    what=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer): [A-Za-z-]+( on [a-z ]+)?|runtime error: .*|SUMMARY: .*' "$log" || true)
    top=$(grep -m1 -oE '#0 0x[0-9a-f]+ in .*' "$log" | sed -E 's/^#0 0x[0-9a-f]+ in //; s/ \(BuildId.*//' || true)
    art=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$log" | tail -1)
    result="FOUND (exit $rc): ${what:-see $log}${top:+ in $top}${art:+; input: $art}"
  fi
  printf '%-18s %12s %9s %12s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "$size" "$result" >"$fz/logs/$name.result"
}
jobs_max=${TX8_FUZZ_JOBS:-$(nproc)}
for name in "${names[@]}"; do
  rm -f "$fz/logs/$name.result"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_one "$name" &
done
wait
failed=0
printf '%-18s %12s %9s %12s  %s\n' fuzzer executions exec/s corpus result
for name in "${names[@]}"; do
  if [ -f "$fz/logs/$name.result" ]; then cat "$fz/logs/$name.result"; else echo "$name: no result (see $fz/logs/$name.log)"; failed=1; fi
  grep -q '  ok$' "$fz/logs/$name.result" 2>/dev/null || failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: something was found; the logs are in $fz/logs/, the inputs in $fz/artifacts/" >&2
  echo "      (reproduce: $BUILD_DIR/bin/NAME INPUT)" >&2
fi
exit $failed
