#!/usr/bin/env bash
# Builds everything and runs the test suite: every test but those labelled "extended" (QEMU runs of more of the
# e2e models, the large models' import variants; `ctest -L extended` runs them alone).
#   scripts/test.sh [--all]     --all: the extended tests too
set -euo pipefail
cd "$(dirname "$0")/.."
exclude=(-LE '^extended$')
if [ "${1:-}" = --all ]; then
  exclude=()
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--all]" >&2
  exit 2
fi
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "${exclude[@]}"
