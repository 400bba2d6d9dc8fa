#!/usr/bin/env bash
# Builds the host tree with clang-19 under AddressSanitizer + UndefinedBehaviorSanitizer (with the libFuzzer
# fuzzers of fuzz/, which scripts/fuzz.sh runs) and runs its test suite.
#   scripts/sanitize.sh [--configure-only] [BUILD_DIR]     BUILD_DIR: default build-asan (gitignored)
# The tree: CC=clang-19 CXX=clang++-19, -DTX8_SANITIZE=address,undefined -DTX8_FUZZ=ON (cmake/Tx8Sanitizers.cmake),
# no RISC-V sub-builds (firmware, not host code), no benchmarks, RelWithDebInfo, and -DTX8_WERROR=OFF: clang warns
# where GCC does not (-Wsign-compare in a few places), which the GCC build (scripts/build.sh) keeps as errors.
# Any ASan or UBSan report fails its test (UBSan: -fno-sanitize-recover, halt_on_error; ASan always stops).
# Left out: portable_symbols (cmodel/OpLib must need no OS symbols, and instrumented objects call the sanitizer
# runtimes), the "install" tests (packaging: install.prefix finds the build tree's paths in RelWithDebInfo debug
# info; install.deb expects tx8-qemu-run, which a TX8_BUILD_RISCV=OFF tree does not install; the demo they run is
# e2e's) and tests labelled "asan-slow": those that run again paths the others run (the zoo's variants, the tile
# and estimate sweeps, the torch zoo but its QEMU sample, the plan fuzzer's short run); the sanitized compiler and
# cmodel run about five times slower than the Release tree's, and CI runs this after the whole Release suite.
# cmocka.seeds and onnx-node-sweep run a smaller part here (tests/cmocka, tests/onnx).
set -euo pipefail
cd "$(dirname "$0")/.."
configure_only=0
if [ "${1:-}" = "--configure-only" ]; then
  configure_only=1
  shift
fi
BUILD_DIR=${1:-build-asan}
# The tests compile bundles (tx8-aot run / test-onnx configure them with cmake), which link this tree's sanitized
# SDK and so need clang as well: CC from the environment is what their configure picks.
export CC=${TX8_SANITIZE_CC:-clang-19} CXX=${TX8_SANITIZE_CXX:-clang++-19}

if [ -f "$BUILD_DIR/CMakeCache.txt" ] && ! grep -q '^TX8_SANITIZE:STRING=..*' "$BUILD_DIR/CMakeCache.txt"; then
  echo "sanitize: $BUILD_DIR is a build tree without TX8_SANITIZE; give an empty or sanitizer build dir" >&2
  exit 2
fi
start=$(date +%s)
# Line tables only (file:line in the sanitizers' stack traces, no variable info): the tree builds faster.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
      -DTX8_SANITIZE=address,undefined -DTX8_FUZZ=ON -DTX8_BUILD_RISCV=OFF -DTX8_BUILD_BENCH=OFF \
      -DTX8_WERROR=OFF >/dev/null
[ "$configure_only" -eq 1 ] && exit 0
cmake --build "$BUILD_DIR" -j "$(nproc)"
built=$(date +%s)
echo "sanitize: configure + build $((built - start)) s"

# detect_container_overflow=0: Debian's LLVM/MLIR/protobuf libraries are not instrumented, and std::vector /
# std::string annotations across that boundary give false container-overflow reports.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_container_overflow=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
rc=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" -LE "^(asan-slow|install|extended)$" -E "^portable_symbols$" \
  || rc=$?
echo "sanitize: ctest $(( $(date +%s) - built )) s"
exit $rc
