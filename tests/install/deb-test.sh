#!/usr/bin/env bash
# deb-test.sh BUILD_DIR WORK_DIR WITH_RISCV(0|1)
# `cpack -G DEB` makes tx8-aot_<version>_amd64.deb; dpkg-deb shows its control fields (package, architecture,
# the shared libraries' packages from dpkg-shlibdeps, the tools a bundle build needs) and its contents (the
# binaries and both targets' SDK under /usr). The package's files, unpacked with dpkg-deb -x into a directory
# (not installed), compile and run the demo CNN, with tx8-aot and with the Python module.
set -euo pipefail
build=$1 work=$2 riscv=$3
rm -rf "$work" && mkdir -p "$work"
unset TX8_SDK_DIR
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log"
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
deb=$work/tx8-aot_${version}_amd64.deb
[ -f "$deb" ] || { echo "deb-test: cpack did not write $deb" >&2; ls "$work" >&2; exit 1; }

fail() { echo "deb-test: $*" >&2; exit 1; }
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = tx8-aot ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)'"
[ "$(field Architecture)" = amd64 ] || fail "Architecture is '$(field Architecture)'"
depends=$(field Depends)
# From dpkg-shlibdeps (what tx8-aot links) and from CPACK_DEBIAN_PACKAGE_DEPENDS (what a bundle build runs).
names=$(tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }')
for pkg in libllvm19 libonnx1 libprotobuf32 libdnnl2 libstdc++6 libc6 \
           cmake ninja-build gcc libc6-dev gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc \
           python3 python3-numpy; do
  grep -qxF "$pkg" <<<"$names" || fail "Depends lacks $pkg: $depends"
done

dpkg-deb --contents "$deb" | awk '{ print $NF }' >"$work/contents.txt"
for f in ./usr/bin/tx8-aot ./usr/bin/tx8-opt ./usr/lib/cmake/tx8/tx8Config.cmake \
         ./usr/lib/cmake/tx8/tx8Targets-cmodel.cmake ./usr/lib/tx8/cmodel/libtx8_oplib.a ./usr/include/tx8/ops.h \
         ./usr/share/doc/tx8-aot/README.md ./usr/lib/python3/dist-packages/tx8/__init__.py; do
  grep -qxF "$f" "$work/contents.txt" || fail "the package lacks $f"
done
if [ "$riscv" = 1 ]; then
  for f in ./usr/bin/tx8-qemu-run ./usr/lib/cmake/tx8/tx8Targets-riscv.cmake ./usr/lib/cmake/tx8/riscv64-gcc.cmake \
           ./usr/lib/tx8/riscv/libtx8_oplib.a ./usr/lib/tx8/riscv/tx8.ld; do
    grep -qxF "$f" "$work/contents.txt" || fail "the package lacks $f"
  done
fi
echo "deb-test: $(basename "$deb"): $(stat -c %s "$deb") bytes, Installed-Size $(field Installed-Size) KiB," \
     "$(grep -c '[^/]$' "$work/contents.txt") files"
echo "deb-test: Depends: $depends"

dpkg-deb -x "$deb" "$work/root"
aot=$work/root/usr/bin/tx8-aot
/usr/bin/python3 "$work/root/usr/share/doc/tx8-aot/examples/make_demo_cnn.py" "$work/model" >/dev/null
"$aot" compile "$work/model/model.onnx" -o "$work/bundle"
targets=(cmodel)
[ "$riscv" = 1 ] && targets+=(riscv)
for t in "${targets[@]}"; do
  "$aot" run "$work/bundle" --target "$t" --inputs-dir "$work/model/test_data_set_0" --out "$work/$t"
done
[ "$riscv" = 1 ] && cmp "$work/cmodel/probs.npy" "$work/riscv/probs.npy"
echo "deb-test: the package's tx8-aot compiles and runs the demo CNN on ${targets[*]}"
# The package's Python module (its own prefix's tools and SDK, found from the module's directory).
PYTHONPATH=$work/root/usr/lib/python3/dist-packages /usr/bin/python3 -c '
import sys, numpy as np, onnx, tx8
from onnx import numpy_helper
assert tx8.__file__.startswith(sys.argv[1]), tx8.__file__
x = numpy_helper.to_array(onnx.load_tensor(sys.argv[2] + "/test_data_set_0/input_0.pb"))
(probs,) = tx8.compile(sys.argv[2] + "/model.onnx").run([x])
assert np.array_equal(probs, np.load(sys.argv[3]))
' "$work/root" "$work/model" "$work/cmodel/probs.npy"
echo "deb-test: the package's Python module compiles and runs the demo CNN, the same outputs as tx8-aot"
