#!/usr/bin/env bash
# The cmodel and OpLib must run bare metal (issue 3): no OS calls, no libm, no allocation. This fails when one of
# the given static libraries needs an external symbol outside the allow-list (project symbols + a few libc basics).
#   check_portable_symbols.sh <nm> <lib.a>...
set -euo pipefail
nm_tool=$1; shift
allowed='^(tx8_|cm_|ct_|CGRATensor_|TsmNe_|TsmDte_|LSU_|op_|eltwise_|pool_|getTsmOpPointer$|mem(cpy|move|set|cmp)$|v?snprintf$|_GLOBAL_OFFSET_TABLE_$)'
status=0
for lib in "$@"; do
  bad=$("$nm_tool" -u "$lib" | awk '$1 == "U" {print $2}' | sort -u | grep -Ev "$allowed" || true)
  if [ -n "$bad" ]; then
    echo "$(basename "$lib") needs symbols a bare-metal build cannot promise: $(echo $bad)"
    status=1
  else
    echo "$(basename "$lib"): portable"
  fi
done
exit $status
