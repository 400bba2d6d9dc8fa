# Shared part of the RISC-V toolchain files: bare-metal rv64imafdc/lp64d (the TX8 kernel cores), picolibc,
# images linked by riscv/tx8.ld and run under qemu-system-riscv64 through riscv/qemu/tx8-qemu-run. Installed
# with the SDK (<prefix>/lib/cmake/tx8/) together with riscv64-gcc.cmake.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
# No OS to run test programs on while configuring: try_compile builds static libraries only.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# -g: symbols and lines for trap reports (tx8-qemu-run names the function and line); code is unchanged.
set(TX8_RISCV_ARCH_FLAGS "-march=rv64imafdc -mabi=lp64d -mcmodel=medany -g")
set(TX8_PICOLIBC_DIR /usr/lib/picolibc/riscv64-unknown-elf)

# add_test() commands of executables run through QEMU: the runner of the source tree (toolchain/ beside riscv/),
# or of an installed SDK (<prefix>/lib/cmake/tx8/ and <prefix>/bin/).
foreach(_tx8_run ${CMAKE_CURRENT_LIST_DIR}/../riscv/qemu/tx8-qemu-run ${CMAKE_CURRENT_LIST_DIR}/../../../bin/tx8-qemu-run)
  if(EXISTS ${_tx8_run})
    get_filename_component(CMAKE_CROSSCOMPILING_EMULATOR ${_tx8_run} ABSOLUTE)
    break()
  endif()
endforeach()
unset(_tx8_run)

set(TX8_TARGET riscv CACHE STRING "HAL backend: cmodel or riscv" FORCE)

# Never look for programs in the target tree, libraries and headers only there (plus the toolchain's own).
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
