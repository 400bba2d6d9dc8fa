#!/usr/bin/env bash
# scripts/planfuzz.sh [--cases N | --seconds S] [--seed K] [--jobs J] [--blocks B] [--work DIR]
# The plan fuzzer (tests/planfuzz/planfuzz.py) with build/bin/tx8-aot: random models of the blocks PyTorch models
# are made of, exported by torch.onnx.export, compiled under random plans (--tiles, --hw SPM size, --precision,
# --opt-search, --sw-pipeline, --fuse), run on the cmodel against PyTorch. Prints each finding (written to
# WORK/findings/*.json, replayable with planfuzz.py --replay) and a summary line. Exits 1 on any finding.
# Defaults: --seconds 600, --seed from the clock (printed), --jobs 2, --blocks 12, WORK = build/planfuzz.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=600 cases= seed=$(date +%s) jobs=2 blocks=12 work=$root/build/planfuzz
while [ $# -gt 0 ]; do
  case $1 in
    --cases) cases=$2; seconds=; shift ;;
    --seconds) seconds=$2; shift ;;
    --seed) seed=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --blocks) blocks=$2; shift ;;
    --work) work=$2; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "planfuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
limit=(--seconds "${seconds:-0}")
[ -n "$cases" ] && limit=(--cases "$cases")
echo "planfuzz.sh: seed $seed"
exec /usr/bin/python3 "$root/tests/planfuzz/planfuzz.py" --aot "$root/build/bin/tx8-aot" --work "$work" \
  "${limit[@]}" --seed "$seed" --jobs "$jobs" --blocks "$blocks"
