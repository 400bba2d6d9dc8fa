# Host build only: the installed toolchain and its Debian package.
#   cmake --install <build> --prefix P    bin/tx8-aot, tx8-opt, tx8-qemu-run; lib/cmake/tx8 (the SDK package,
#                                         both targets); lib/tx8/{cmodel,riscv}; include/tx8; share/doc/tx8-aot;
#                                         lib/python3/dist-packages/tx8 (the Python module, python/)
#   cpack --config <build>/CPackConfig.cmake -G DEB    tx8-aot_<version>_amd64.deb (prefix /usr)
# Nothing installed names the source or build tree: tx8-aot finds its SDK relative to its own executable.

# The RISC-V half of the SDK comes from the riscv-gcc sub-build's own install rules (cmake/Tx8Sdk.cmake with
# TX8_TARGET=riscv), run into the same prefix; DESTDIR (cpack's staging dir) reaches it through the environment.
if(TX8_BUILD_RISCV)
  install(CODE "execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${TX8_RISCV_GCC_DIR}\"
                                        --prefix \"\${CMAKE_INSTALL_PREFIX}\" COMMAND_ERROR_IS_FATAL ANY)")
endif()

install(FILES README.md DESTINATION share/doc/tx8-aot)
install(DIRECTORY docs/ DESTINATION share/doc/tx8-aot/docs FILES_MATCHING PATTERN "*.md") # the README's links
install(FILES cmake/README.md DESTINATION share/doc/tx8-aot RENAME sdk.md)
install(PROGRAMS models/make_demo_cnn.py DESTINATION share/doc/tx8-aot/examples)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tx8-aot)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tx8-aot developers <tx8-aot@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ahead-of-time compiler toolchain for the TX8 AI accelerator")
set(CPACK_PACKAGE_DESCRIPTION "tx8-aot compiles ONNX (or TOSA / tx8be MLIR) models into C firmware bundles and
builds and runs them on the TX8 chip model (cmodel, x86) or as bare-metal RISC-V firmware under QEMU. Includes
the SDK (OpLib, runtime, HAL and chip model for both targets) as the CMake package tx8.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # tx8-aot_<version>_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The libraries tx8-aot and tx8-opt link (LLVM, ONNX, protobuf, oneDNN...) come from dpkg-shlibdeps; the rest is
# what building and running a bundle calls: cmake + ninja + the host C compiler (cmodel), the riscv64 cross
# compiler, its binutils (tx8-qemu-run reads symbols with nm/addr2line), picolibc and QEMU (riscv).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "cmake (>= 3.20), ninja-build, gcc, libc6-dev, gcc-riscv64-unknown-elf, binutils-riscv64-unknown-elf, picolibc-riscv64-unknown-elf, qemu-system-misc, mawk | awk")
# The Python module (/usr/lib/python3/dist-packages/tx8): its extension is built for this Python's minor version.
if(TARGET _tx8)
  string(REPLACE "." ";" _py "${TX8_PYTHON_VERSION}")
  list(GET _py 0 _py_major)
  list(GET _py 1 _py_minor)
  math(EXPR _py_next "${_py_minor} + 1")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS
         ", python3 (>= ${TX8_PYTHON_VERSION}), python3 (<< ${_py_major}.${_py_next}), python3-numpy")
endif()
include(CPack)
