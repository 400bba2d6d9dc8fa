#!/usr/bin/env bash
# Installs every Debian package the build and the tests need. Idempotent: does nothing when all are present.
#   scripts/install-deps.sh          install what is missing
#   scripts/install-deps.sh --list   print the package list, one a line (tests/lint/check_deps_closure.py reads it)
# Everything the build uses must come from these packages or their Depends/Pre-Depends (never a Recommends:
# they are installed with --no-install-recommends); ctest's deps_closure check holds the build to that.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config python3
  dpkg-dev file   # cpack -G DEB (tests/install): dpkg-shlibdeps, and file to find the ELF binaries it reads
  libcmocka-dev   # per-op C tests
  libdnnl-dev     # oneDNN: reference results and timings
  ocl-icd-opencl-dev  # OpenCL headers + libOpenCL.so: oneDNN's dnnl-config.cmake find_package()s OpenCL, but
                      # libdnnl-dev only Recommends it (and we install with --no-install-recommends)
  # RISC-V bare-metal backend: cross compilers, C library, emulator
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc clang-19
  # compiler: MLIR 19, ONNX import, unit and lit tests, conformance data
  libmlir-19-dev mlir-19-tools llvm-19-dev llvm-19-tools lld-19
  libonnx-dev libprotobuf-dev protobuf-compiler libgtest-dev libonnx-testdata python3-onnx
  # scripts/sanitize.sh, scripts/fuzz.sh: the clang-19 tree (clang-19 above) needs clang's sanitizer runtimes and
  # libFuzzer, and its OpenMP (FindOpenMP with clang wants omp.h and libomp)
  libclang-rt-19-dev libomp-19-dev
  chromium        # tests/report: the HTML report loaded in headless chromium (--dump-dom)
  time            # /usr/bin/time: compile wall time and peak RSS in scripts/zoo.sh and scripts/bench-plan.sh
  # models as PyTorch's own torch.onnx.export writes them (tests/planfuzz, the torch zoo: models/make_torch_zoo.py,
  # ctest -L torchzoo, scripts/torchzoo.sh), PyTorch's outputs as the expected ones (no downloads: random weights)
  python3-torch python3-torchvision
  # the Python module (python/): pybind11 and the Python headers to build it, numpy for its tensors, pytest for its
  # tests (ctest -L python)
  pybind11-dev python3-dev python3-numpy python3-pytest
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
