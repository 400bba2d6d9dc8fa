# Host build only: cross-builds the firmware side for RISC-V as two sub-builds of this same source tree, so one
# `cmake --build` + `ctest` on the host covers both backends:
#   riscv-gcc/    the whole per-op test suite (riscv64-unknown-elf-gcc + picolibc), run under QEMU
#   riscv-clang/  one op test built with clang-19 (the second supported toolchain), run under QEMU
# tests/cmocka registers the QEMU runs and the host-vs-QEMU digest comparisons (tx8_cmocka_test).
include(ExternalProject)

find_program(TX8_RISCV_GCC riscv64-unknown-elf-gcc)
find_program(TX8_QEMU_RISCV64 qemu-system-riscv64)
if(NOT TX8_RISCV_GCC OR NOT TX8_QEMU_RISCV64)
  message(FATAL_ERROR "TX8_BUILD_RISCV needs riscv64-unknown-elf-gcc and qemu-system-riscv64 "
                      "(scripts/install-deps.sh installs them), or configure with -DTX8_BUILD_RISCV=OFF")
endif()

set(TX8_RISCV_GCC_DIR ${CMAKE_BINARY_DIR}/riscv-gcc CACHE INTERNAL "")
set(TX8_RISCV_CLANG_DIR ${CMAKE_BINARY_DIR}/riscv-clang CACHE INTERNAL "")
set(TX8_RISCV_CLANG_TESTS test_op_batchnorm_inference CACHE INTERNAL "tests also built with clang")
set(TX8_QEMU_RUN ${CMAKE_SOURCE_DIR}/riscv/qemu/tx8-qemu-run CACHE INTERNAL "")
# tx8-aot runs riscv bundles with the runner beside it, in the build tree as when installed (<prefix>/bin).
configure_file(${TX8_QEMU_RUN} ${CMAKE_BINARY_DIR}/bin/tx8-qemu-run COPYONLY)

set(_tx8_sub_args -DCMAKE_BUILD_TYPE=Release -DTX8_BUILD_BENCH=OFF -DTX8_BUILD_COMPILER=OFF -DTX8_BUILD_RISCV=OFF
                  -DTX8_WERROR=${TX8_WERROR})

ExternalProject_Add(tx8_riscv_gcc
  SOURCE_DIR ${CMAKE_SOURCE_DIR}
  BINARY_DIR ${TX8_RISCV_GCC_DIR}
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/toolchain/riscv64-gcc.cmake ${_tx8_sub_args}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  USES_TERMINAL_CONFIGURE ON USES_TERMINAL_BUILD ON)

set(_tx8_clang_targets)
foreach(t IN LISTS TX8_RISCV_CLANG_TESTS)
  list(APPEND _tx8_clang_targets --target ${t})
endforeach()
ExternalProject_Add(tx8_riscv_clang
  SOURCE_DIR ${CMAKE_SOURCE_DIR}
  BINARY_DIR ${TX8_RISCV_CLANG_DIR}
  CMAKE_GENERATOR Ninja
  CMAKE_ARGS -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/toolchain/riscv64-clang.cmake ${_tx8_sub_args}
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> ${_tx8_clang_targets}
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  DEPENDS tx8_riscv_gcc # one cross build at a time on small machines
  USES_TERMINAL_CONFIGURE ON USES_TERMINAL_BUILD ON)
