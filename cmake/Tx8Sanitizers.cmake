# Sanitizers and fuzzing instrumentation for the host build (scripts/sanitize.sh, scripts/fuzz.sh, fuzz/README.md).
#
#   -DTX8_SANITIZE=address,undefined   every host target is compiled and linked with
#                                      -fsanitize=<list> -fno-omit-frame-pointer -fno-sanitize-recover=undefined
#   -DTX8_FUZZ=ON                      (clang only) every host target is also compiled and linked with
#                                      -fsanitize=fuzzer-no-link, so that the libraries the fuzzers drive (the ONNX
#                                      importer, the tensor readers, the dialect, the driver) feed libFuzzer their
#                                      coverage; fuzz/ adds one fuzzer per parser of hostile input, linked with
#                                      -fsanitize=fuzzer
#
# Included from the top-level CMakeLists.txt before any target is defined; the flags are directory-wide options, so
# they reach every target of the tree (libraries, tools, tests). A cross build (the RISC-V sub-builds, a riscv
# toolchain file) gets none of it. The firmware-side libraries a bundle links (the SDK, cmake/Tx8Sdk.cmake) carry
# the link flags as INTERFACE_LINK_OPTIONS (tx8_sanitizer_sdk_link_options), so a bundle built against a sanitized
# tree links; such a bundle must be built with clang too (scripts/sanitize.sh exports CC=clang-19).
set(TX8_SANITIZE "" CACHE STRING "Host build: comma-separated -fsanitize= list (e.g. address,undefined); empty = none")
option(TX8_FUZZ "Host build: build the libFuzzer fuzzers in fuzz/ (needs clang for C and C++)" OFF)

# tx8_sanitizer_sdk_link_options(<target>...): whoever links these (a bundle against this tree's SDK) links the
# sanitizer runtimes too. Called from the top-level CMakeLists.txt once the SDK libraries exist.
function(tx8_sanitizer_sdk_link_options)
  if(NOT TX8_INSTRUMENT_FLAGS)
    return()
  endif()
  foreach(t IN LISTS ARGN)
    if(TARGET ${t})
      target_link_options(${t} INTERFACE ${TX8_INSTRUMENT_FLAGS})
    endif()
  endforeach()
endfunction()

set(TX8_INSTRUMENT_FLAGS "")
if(CMAKE_CROSSCOMPILING)
  if(TX8_SANITIZE OR TX8_FUZZ)
    message(STATUS "tx8: TX8_SANITIZE / TX8_FUZZ apply to the host build only; ignored in this cross build")
  endif()
  return()
endif()

if(TX8_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "tx8: TX8_FUZZ=ON needs clang (libFuzzer) as both the C and the C++ compiler, but they are "
                        "${CMAKE_C_COMPILER_ID} (${CMAKE_C_COMPILER}) and ${CMAKE_CXX_COMPILER_ID} "
                        "(${CMAKE_CXX_COMPILER}); configure a fresh build dir with CC=clang-19 CXX=clang++-19 "
                        "(scripts/sanitize.sh does)")
  endif()
  list(APPEND TX8_INSTRUMENT_FLAGS -fsanitize=fuzzer-no-link)
endif()

if(TX8_SANITIZE)
  if(NOT TX8_SANITIZE MATCHES "^[a-z_-]+(,[a-z_-]+)*$")
    message(FATAL_ERROR "tx8: TX8_SANITIZE='${TX8_SANITIZE}' is not a comma-separated list of sanitizer names "
                        "(e.g. address,undefined)")
  endif()
  list(APPEND TX8_INSTRUMENT_FLAGS -fsanitize=${TX8_SANITIZE} -fno-omit-frame-pointer
       -fno-sanitize-recover=undefined)
  # The flags must be ones the compiler and its runtimes accept (GCC has no libFuzzer; libclang-rt-19-dev holds
  # clang's sanitizer runtimes): a clear configure error instead of a failing first link.
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=${TX8_SANITIZE}")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=${TX8_SANITIZE}")
  check_c_source_compiles("int main(void) { return 0; }" TX8_SANITIZE_WORKS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT TX8_SANITIZE_WORKS)
    message(FATAL_ERROR "tx8: ${CMAKE_C_COMPILER} cannot compile and link with -fsanitize=${TX8_SANITIZE} "
                        "(for clang-19: apt-get install libclang-rt-19-dev; scripts/install-deps.sh lists it)")
  endif()
endif()

if(TX8_INSTRUMENT_FLAGS)
  message(STATUS "tx8: instrumented host build: ${TX8_INSTRUMENT_FLAGS}")
  add_compile_options(${TX8_INSTRUMENT_FLAGS})
  add_link_options(${TX8_INSTRUMENT_FLAGS})
endif()
if(TX8_SANITIZE MATCHES "(^|,)address(,|$)")
  # LLVM's headers poison allocator slabs by hand in an ASan build, which the uninstrumented Debian LLVM/MLIR
  # libraries never unpoison: false use-after-poison reports (the header says more).
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-include${CMAKE_CURRENT_LIST_DIR}/Tx8AsanLlvmHeaders.h>)
endif()
