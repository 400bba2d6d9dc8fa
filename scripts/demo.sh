#!/usr/bin/env bash
# Builds and runs the demo: op_batchnorm_inference, 8x56x56x129 fp16, on the cmodel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
"${BUILD_DIR:-build}"/bin/tx8-demo-batchnorm
