# RISC-V bare metal with clang 19 (Debian clang-19) against picolibc and gcc's libgcc, linked by GNU ld.
#   cmake -S . -B build-riscv-clang -G Ninja -DCMAKE_TOOLCHAIN_FILE=toolchain/riscv64-clang.cmake
# clang's own bare-metal driver wants ld.lld and compiler-rt in its own sysroot layout; we pass everything
# explicitly instead (see ../shared/notes/riscv-qemu.md).
include(${CMAKE_CURRENT_LIST_DIR}/riscv64-common.cmake)

find_program(TX8_CLANG NAMES clang-19 REQUIRED)
set(CMAKE_C_COMPILER ${TX8_CLANG})
set(CMAKE_ASM_COMPILER ${TX8_CLANG})
set(CMAKE_C_COMPILER_TARGET riscv64-unknown-elf)
set(CMAKE_ASM_COMPILER_TARGET riscv64-unknown-elf)
set(TX8_RISCV_COMPILER_ID clang)

execute_process(COMMAND riscv64-unknown-elf-gcc -march=rv64imafdc -mabi=lp64d -print-libgcc-file-name
                OUTPUT_VARIABLE TX8_RISCV_LIBGCC OUTPUT_STRIP_TRAILING_WHITESPACE)
get_filename_component(TX8_RISCV_LIBGCC_DIR ${TX8_RISCV_LIBGCC} DIRECTORY)

# DWARF 4: GNU ld 2.40 crashes on clang's DWARF 5 with linker relaxation. local-exec TLS as picolibc.specs sets.
set(TX8_CLANG_FLAGS "${TX8_RISCV_ARCH_FLAGS} -isystem ${TX8_PICOLIBC_DIR}/include -fdebug-default-version=4 -ftls-model=local-exec")
set(CMAKE_C_FLAGS_INIT "${TX8_CLANG_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${TX8_CLANG_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-nostdlib --ld-path=/usr/bin/riscv64-unknown-elf-ld -L${TX8_PICOLIBC_DIR}/lib -L${TX8_RISCV_LIBGCC_DIR} -Wl,--gc-sections")
set(CMAKE_C_STANDARD_LIBRARIES "-Wl,--start-group -lc -lm -lsemihost -lgcc -Wl,--end-group")
set(CMAKE_AR /usr/bin/riscv64-unknown-elf-ar)
set(CMAKE_RANLIB /usr/bin/riscv64-unknown-elf-ranlib)
