#!/usr/bin/env bash
# min-spm.sh [--aot PATH] MODEL...
# Prints, per model, the smallest SPM (bytes, to 1 KiB) it compiles with: a binary search over spm_bytes
# (tx8-aot compile --hw {"spm_bytes": N}) between 1 KiB and 64 MiB. A model that does not compile at 64 MiB
# prints "> 67108864" and the first error line.
set -euo pipefail
aot=$(cd "$(dirname "$0")/.." && pwd)/build/bin/tx8-aot
if [ "${1:-}" = --aot ]; then aot=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: min-spm.sh [--aot PATH] MODEL..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compiles() { # compiles MODEL BYTES
  printf '{"spm_bytes": %d}\n' "$2" > "$work/hw.json"
  "$aot" compile "$1" -o "$work/bundle" --hw "$work/hw.json" > /dev/null 2> "$work/err"
}
printf '%-40s %12s\n' model min_spm_bytes
for model in "$@"; do
  lo=1 hi=65536 # KiB
  if ! compiles "$model" $((hi * 1024)); then
    printf '%-40s %12s  %s\n' "$model" "> $((hi * 1024))" "$(head -c 200 "$work/err" | head -1)"
    continue
  fi
  while [ "$lo" -lt "$hi" ]; do
    mid=$(((lo + hi) / 2))
    if compiles "$model" $((mid * 1024)); then hi=$mid; else lo=$((mid + 1)); fi
  done
  printf '%-40s %12d\n' "$model" $((lo * 1024))
done
