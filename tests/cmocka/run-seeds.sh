#!/usr/bin/env bash
# run-seeds.sh FIRST LAST PROGRAM... : every CMocka program once per TX8_TEST_SEED in [FIRST, LAST] (their random
# cases change with the seed); prints each failing program and seed, fails if any.
set -uo pipefail
first=$1 last=$2
shift 2
failed=0
for seed in $(seq "$first" "$last"); do
  for program in "$@"; do
    if ! TX8_TEST_SEED=$seed "$program" >/dev/null 2>&1; then
      echo "FAIL: TX8_TEST_SEED=$seed $program"
      failed=$((failed + 1))
    fi
  done
done
echo "seeds $first..$last x $# programs: $failed failures"
[ "$failed" -eq 0 ]
