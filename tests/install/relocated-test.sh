#!/usr/bin/env bash
# relocated-test.sh PREFIX BUILD_TX8_AOT WORK_DIR WITH_RISCV(0|1)
# The relocated install (prefix-test.sh) against the build tree's tx8-aot: the demo CNN (its generator is
# installed as an example) compiled by both gives the same bundle, and runs on the cmodel and under QEMU with
# the same outputs and simulated cycles. Then a bundle configured with plain find_package(tx8) through
# CMAKE_PREFIX_PATH builds for both targets, and tx8-opt runs a pass.
set -euo pipefail
prefix=$1 build_aot=$2 work=$3 riscv=$4
rm -rf "$work" && mkdir -p "$work/installed" "$work/build-tree"
unset TX8_SDK_DIR
aot=$prefix/bin/tx8-aot
targets=(cmodel)
[ "$riscv" = 1 ] && targets+=(riscv)

/usr/bin/python3 "$prefix/share/doc/tx8-aot/examples/make_demo_cnn.py" "$work/model" >/dev/null
inputs=$work/model/test_data_set_0
"$aot" compile "$work/model/model.onnx" -o "$work/installed/bundle"
"$build_aot" compile "$work/model/model.onnx" -o "$work/build-tree/bundle"
diff -r "$work/installed/bundle" "$work/build-tree/bundle"
echo "relocated-test: the installed tx8-aot writes the same bundle as the build tree's"

for t in "${targets[@]}"; do
  for side in installed build-tree; do
    tool=$aot
    [ "$side" = build-tree ] && tool=$build_aot
    # TX8_BUILD_CACHE=0: the bundle gets a build tree of its own, whose CMakeCache shows the SDK it used.
    TX8_BUILD_CACHE=0 "$tool" run "$work/$side/bundle" --target "$t" --inputs-dir "$inputs" --out "$work/$side/$t" \
      | grep -o "$t: [0-9]* simulated cycles" >"$work/$side/$t.cycles"
  done
  cmp "$work/installed/$t/probs.npy" "$work/build-tree/$t/probs.npy"
  cmp "$work/installed/$t.cycles" "$work/build-tree/$t.cycles"
  grep -q "^TX8_SDK_DIR:PATH=$prefix/lib/cmake/tx8\$" "$work/installed/bundle/build-$t/CMakeCache.txt"
  echo "relocated-test: $t from $prefix: outputs and $(cat "$work/installed/$t.cycles") as from the build tree"
done
[ "$riscv" = 1 ] && cmp "$work/installed/cmodel/probs.npy" "$work/installed/riscv/probs.npy"

# A bundle on its own, with the SDK found the way an installed package is found.
for t in "${targets[@]}"; do
  dir=$work/standalone-$t
  mkdir -p "$dir"
  cp "$work/installed/bundle/main.c" "$work/installed/bundle/model.h" "$work/installed/bundle/CMakeLists.txt" "$dir/"
  args=(-DCMAKE_PREFIX_PATH="$prefix")
  [ "$t" = riscv ] && args+=(-DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/tx8/riscv64-gcc.cmake")
  cmake -S "$dir" -B "$dir/build" -G Ninja "${args[@]}" >"$dir/configure.log"
  grep -q "^tx8_DIR:PATH=$prefix/lib/cmake/tx8\$" "$dir/build/CMakeCache.txt"
  cmake --build "$dir/build" >"$dir/build.log"
  [ -x "$dir/build/model" ]
  echo "relocated-test: find_package(tx8) with CMAKE_PREFIX_PATH=$prefix builds the bundle for $t"
done

# tx8-opt parses what tx8-aot import prints and runs a pass on it.
"$aot" import "$work/model/model.onnx" >"$work/model.mlir"
"$prefix/bin/tx8-opt" --tx8be-infer-shapes "$work/model.mlir" -o "$work/model.opt.mlir"
grep -q "tx8be.Conv" "$work/model.opt.mlir"
echo "relocated-test: ok"
