#!/usr/bin/env bash
# expect-run.sh EXIT_CODE REGEX MAX_SECONDS -- COMMAND…
# Runs COMMAND and passes when it exits with EXIT_CODE, printed a line matching REGEX (grep -E) and took at most
# MAX_SECONDS; also fails if a qemu-system-riscv64 started by it is still alive afterwards.
set -uo pipefail
want_rc=$1 regex=$2 max_s=$3
shift 3
[ "${1:-}" = "--" ] && shift
start=$(date +%s)
out=$("$@" 2>&1)
rc=$?
elapsed=$(( $(date +%s) - start ))
printf '%s\n' "$out"
fail=0
if [ "$rc" != "$want_rc" ]; then echo "expect-run: exit code $rc, expected $want_rc" >&2; fail=1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then echo "expect-run: no line matches: $regex" >&2; fail=1; fi
if [ "$elapsed" -gt "$max_s" ]; then echo "expect-run: took ${elapsed} s, more than ${max_s} s" >&2; fail=1; fi
image=${*: -1}
if pgrep -f "qemu-system-riscv64 .*-kernel $image" >/dev/null; then
  echo "expect-run: a QEMU for $image is still running" >&2
  fail=1
fi
exit $fail
