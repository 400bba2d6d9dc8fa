#!/usr/bin/env bash
# node-sweep.sh TX8_AOT NODE_DIR PASS_LIST [K/N]
# Runs `tx8-aot test-onnx --target reference` on every ONNX node test (with K/N: those whose index in name order
# is K modulo N, so that N tests together cover them all). Fails if any run crashes, hangs or reports a wrong
# answer (exit code other than 0 = pass and 1 = cleanly refused with an error), or if a test named in PASS_LIST
# no longer passes. Prints a summary and the tests that newly pass.
set -uo pipefail
aot=$1 node_dir=$2 pass_list=$3 part=${4:-0/1}
if ! [[ $part =~ ^([0-9]+)/([1-9][0-9]*)$ ]] || [ "${BASH_REMATCH[1]}" -ge "${BASH_REMATCH[2]}" ]; then
  echo "node-sweep.sh: the part is K/N with 0 <= K < N, not '$part'" >&2
  exit 2
fi
k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
declare -A expected
while read -r name; do [ -n "$name" ] && expected[$name]=1; done <"$pass_list"

passed=0 refused=0 bad=0 regressed=0 new=() index=-1
for dir in "$node_dir"/test_*; do
  index=$((index + 1))
  [ $((index % n)) -eq "$k" ] || continue
  name=$(basename "$dir")
  out=$(timeout 60 "$aot" test-onnx "$dir" --target reference 2>&1)
  rc=$?
  case $rc in
    0) passed=$((passed + 1)); [ -z "${expected[$name]:-}" ] && new+=("$name") ;;
    1) refused=$((refused + 1))
       if ! grep -q '^tx8-aot: error: ' <<<"$out"; then
         echo "NO CLEAR ERROR: $name"; echo "$out" | head -5; bad=$((bad + 1))
       fi ;;
    *) echo "BAD EXIT $rc: $name"; echo "$out" | tail -5; bad=$((bad + 1)) ;;
  esac
  if [ $rc -ne 0 ] && [ -n "${expected[$name]:-}" ]; then
    echo "REGRESSION: $name no longer passes"; echo "$out" | tail -3; regressed=$((regressed + 1))
  fi
done
echo "node tests: $passed pass, $refused refused with an error, $bad crashed/hung/wrong, $regressed regressed"
[ ${#new[@]} -gt 0 ] && echo "newly passing (add to $(basename "$pass_list")): ${new[*]}"
[ $bad -eq 0 ] && [ $regressed -eq 0 ]
