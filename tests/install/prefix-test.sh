#!/usr/bin/env bash
# prefix-test.sh BUILD_DIR SOURCE_DIR WORK_DIR WITH_RISCV(0|1)
# `cmake --install` of the build tree into WORK_DIR/staged: the expected files are there and no installed file
# (binaries and archives included) names the source or the build tree. The prefix is then moved to
# WORK_DIR/prefix (a copy, the original removed), so the tests that use it run a relocated toolchain.
set -euo pipefail
build=$1 src=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/staged" >"$work/install.log"

expect=(bin/tx8-aot bin/tx8-opt lib/cmake/tx8/tx8Config.cmake lib/cmake/tx8/tx8ConfigVersion.cmake
        lib/cmake/tx8/tx8Target-cmodel.cmake lib/cmake/tx8/tx8Targets-cmodel.cmake
        lib/tx8/cmodel/libtx8_oplib.a lib/tx8/cmodel/libtx8_cmodel.a lib/tx8/cmodel/libtx8_hal_cmodel.a
        include/tx8/ops.h include/tx8/hal_cmodel.h share/doc/tx8-aot/README.md share/doc/tx8-aot/sdk.md
        lib/python3/dist-packages/tx8/__init__.py)
if [ "$riscv" = 1 ]; then
  expect+=(bin/tx8-qemu-run lib/cmake/tx8/tx8Target-riscv.cmake lib/cmake/tx8/tx8Targets-riscv.cmake
           lib/cmake/tx8/riscv64-gcc.cmake lib/cmake/tx8/riscv64-common.cmake lib/tx8/riscv/libtx8_oplib.a
           lib/tx8/riscv/libtx8_hal_riscv.a lib/tx8/riscv/tx8.ld include/tx8/hal_riscv.h)
fi
for f in "${expect[@]}"; do
  [ -f "$work/staged/$f" ] || { echo "prefix-test: $f was not installed" >&2; exit 1; }
done
compgen -G "$work/staged/lib/python3/dist-packages/tx8/_tx8.*.so" >/dev/null ||
  { echo "prefix-test: the Python module's extension _tx8 was not installed" >&2; exit 1; }

# No absolute path of either tree, in any spelling (the build dir may sit inside the source dir or not).
paths=()
for p in "$src" "$build"; do
  paths+=("$p" "$(realpath "$p")")
done
pattern_args=()
for p in $(printf '%s\n' "${paths[@]}" | sort -u); do
  pattern_args+=(-e "$p")
done
if leaks=$(grep -rlaF "${pattern_args[@]}" "$work/staged"); then
  echo "prefix-test: installed files name the source or build tree:" >&2
  for f in $leaks; do
    echo "  $f: $(grep -aoF "${pattern_args[@]}" "$f" | sort -u | head -3 | tr '\n' ' ')" >&2
  done
  exit 1
fi
echo "prefix-test: $(find "$work/staged" -type f | wc -l) files, $(du -sk "$work/staged" | cut -f1) KiB;" \
     "none names $src or $build"

cp -a "$work/staged" "$work/prefix"
rm -rf "$work/staged"
echo "prefix-test: relocated to $work/prefix"
