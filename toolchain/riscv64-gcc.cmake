# RISC-V bare metal with GNU gcc 12 and picolibc (Debian gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf).
#   cmake -S . -B build-riscv -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchain/riscv64-gcc.cmake
include(${CMAKE_CURRENT_LIST_DIR}/riscv64-common.cmake)

set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(TX8_RISCV_COMPILER_ID gcc)

# picolibc.specs adds picolibc's include and library paths; --oslib=semihost links libsemihost (console and
# host files through QEMU semihosting). -nostartfiles: riscv/src/start.S is the entry, not picolibc's crt0.
set(CMAKE_C_FLAGS_INIT "${TX8_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "${TX8_RISCV_ARCH_FLAGS} --specs=picolibc.specs")
set(CMAKE_EXE_LINKER_FLAGS_INIT "--oslib=semihost -nostartfiles")
