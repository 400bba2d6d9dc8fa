#!/usr/bin/env bash
# compare-digests.sh QEMU_LOG HOST_PROGRAM
# Runs the host (cmodel) build of a test program and checks that every test case ended with the same memory
# digest and simulated cycles as in the QEMU run's log: the "[ digest ]" lines must match one for one.
set -uo pipefail
log=$1 host=$2
if [ ! -s "$log" ]; then
  echo "compare-digests: no QEMU log at $log (did the qemu test run?)" >&2
  exit 1
fi
qemu_digests=$(grep -a '^\[ digest \]' "$log" | tr -d '\r')
host_digests=$("$host" 2>/dev/null | grep -a '^\[ digest \]')
n=$(printf '%s\n' "$host_digests" | grep -c . || true)
if [ "$n" -eq 0 ]; then
  echo "compare-digests: the host run of $host printed no digests" >&2
  exit 1
fi
if [ "$qemu_digests" != "$host_digests" ]; then
  echo "compare-digests: host and QEMU runs differ:" >&2
  diff <(printf '%s\n' "$host_digests") <(printf '%s\n' "$qemu_digests") | sed 's/^</host:/; s/^>/qemu:/' >&2
  exit 1
fi
echo "compare-digests: $n test cases, memory digests and cycles identical on cmodel and QEMU"
