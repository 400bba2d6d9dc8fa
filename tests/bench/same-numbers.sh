#!/usr/bin/env bash
# same-numbers.sh HOST_PROGRAM [ARGS...] -- QEMU_COMMAND... : runs both and requires the same output checksum,
# simulated cycles and DDR traffic lines (the demo's results), so the two backends agree on bits and on time.
set -uo pipefail
host=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do host+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "usage: $0 HOST_PROGRAM [ARGS...] -- QEMU_COMMAND..." >&2; exit 2; }
shift
pick() { grep -E '^  (output checksum|simulated cycles|DDR traffic) ' || true; }
h=$("${host[@]}" 2>&1) || { echo "host run failed:"; echo "$h"; exit 1; }
q=$("$@" 2>&1) || { echo "QEMU run failed:"; echo "$q"; exit 1; }
hn=$(echo "$h" | pick) qn=$(echo "$q" | pick)
echo "host:"; echo "$hn"; echo "QEMU:"; echo "$qn"
[ -n "$hn" ] && [ "$(echo "$hn" | wc -l)" -eq 3 ] || { echo "the host run printed no results"; exit 1; }
[ "$hn" = "$qn" ] || { echo "host and QEMU differ"; exit 1; }
