# The tx8 SDK: the firmware-side libraries (OpLib, runtime, HAL, chip model; on riscv also the start-up objects
# and the linker script) as the CMake package `tx8`: imported targets tx8::<name> and tx8_add_bundle(). The same
# config (cmake/tx8Config.cmake.in) serves two places:
#   <build>/sdk             this build tree, for this tree's target only (the riscv-gcc sub-build writes its
#                           own); absolute paths into the source and build trees, nothing installed
#   <prefix>/lib/cmake/tx8  `cmake --install`: the host build installs the cmodel SDK and runs the riscv-gcc
#                           sub-build's install, so both targets sit side by side; relocatable
# An SDK dir holds target T when it holds tx8Target-T.cmake (paths) and tx8Targets-T.cmake (imported targets).
# See cmake/README.md.
set(TX8_SDK_DIR ${CMAKE_BINARY_DIR}/sdk)
set(TX8_INSTALL_CMAKEDIR lib/cmake/tx8)       # the package: config, per-target files, riscv toolchain files
set(TX8_INSTALL_LIBDIR lib/tx8/${TX8_TARGET}) # one target's libraries (and riscv's linker script, start-up)

# Exported as tx8::<name>: the libraries a program on the chip links, and what they link themselves.
set(_tx8_sdk_targets tx8_hal_api tx8_cmodel tx8_runtime tx8_oplib_plan tx8_oplib)
if(TX8_TARGET STREQUAL "riscv")
  list(APPEND _tx8_sdk_targets tx8_hal_riscv tx8_riscv_api tx8_riscv_rt)
else()
  list(APPEND _tx8_sdk_targets tx8_hal_cmodel)
endif()
foreach(t IN LISTS _tx8_sdk_targets)
  string(REGEX REPLACE "^tx8_" "" _tx8_export_name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${_tx8_export_name})
endforeach()

# --- the build tree as an SDK ---
export(TARGETS ${_tx8_sdk_targets} NAMESPACE tx8:: FILE ${TX8_SDK_DIR}/tx8Targets-${TX8_TARGET}.cmake)
set(TX8_SDK_PATHS "set(TX8_QEMU_RUN \"${PROJECT_SOURCE_DIR}/riscv/qemu/tx8-qemu-run\")")
if(TX8_TARGET STREQUAL "riscv")
  string(APPEND TX8_SDK_PATHS "\nset(TX8_RISCV_LINKER_SCRIPT \"${TX8_RISCV_LINKER_SCRIPT}\")")
  # The toolchain file has the same name in both SDK forms, so tx8-aot finds it beside the config.
  file(CONFIGURE OUTPUT ${TX8_SDK_DIR}/riscv64-gcc.cmake @ONLY CONTENT
       "# The source tree's toolchain file (written by cmake/Tx8Sdk.cmake).\ninclude(\"@PROJECT_SOURCE_DIR@/toolchain/riscv64-gcc.cmake\")\n")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/tx8Target.cmake.in ${TX8_SDK_DIR}/tx8Target-${TX8_TARGET}.cmake @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/tx8Config.cmake.in ${TX8_SDK_DIR}/tx8Config.cmake @ONLY)
include(CMakePackageConfigHelpers)
# ARCH_INDEPENDENT: one package holds both targets (x86-64 and riscv64 libraries).
write_basic_package_version_file(${TX8_SDK_DIR}/tx8ConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)

# --- the installed SDK ---
install(TARGETS ${_tx8_sdk_targets} EXPORT tx8-${TX8_TARGET}
        ARCHIVE DESTINATION ${TX8_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${TX8_INSTALL_LIBDIR}/objects)
install(EXPORT tx8-${TX8_TARGET} NAMESPACE tx8:: FILE tx8Targets-${TX8_TARGET}.cmake
        DESTINATION ${TX8_INSTALL_CMAKEDIR})
# The headers of this target's libraries: the include/ dirs of the exported targets' source dirs.
foreach(t IN LISTS _tx8_sdk_targets)
  get_target_property(_tx8_includes ${t} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(dir IN LISTS _tx8_includes)
    if(dir MATCHES "^\\$<BUILD_INTERFACE:(.*)>$")
      install(DIRECTORY ${CMAKE_MATCH_1}/ DESTINATION include)
    endif()
  endforeach()
endforeach()
string(CONCAT TX8_SDK_PATHS "get_filename_component(_tx8_prefix \"\${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)\n"
                            "set(TX8_QEMU_RUN \"\${_tx8_prefix}/bin/tx8-qemu-run\")")
if(TX8_TARGET STREQUAL "riscv")
  string(APPEND TX8_SDK_PATHS "\nset(TX8_RISCV_LINKER_SCRIPT \"\${_tx8_prefix}/${TX8_INSTALL_LIBDIR}/tx8.ld\")")
  install(FILES ${TX8_RISCV_LINKER_SCRIPT} DESTINATION ${TX8_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/toolchain/riscv64-gcc.cmake ${PROJECT_SOURCE_DIR}/toolchain/riscv64-common.cmake
          DESTINATION ${TX8_INSTALL_CMAKEDIR})
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/riscv/qemu/tx8-qemu-run DESTINATION bin)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/tx8Target.cmake.in ${CMAKE_BINARY_DIR}/sdk-install/tx8Target-${TX8_TARGET}.cmake
               @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/sdk-install/tx8Target-${TX8_TARGET}.cmake ${TX8_SDK_DIR}/tx8Config.cmake
              ${TX8_SDK_DIR}/tx8ConfigVersion.cmake
        DESTINATION ${TX8_INSTALL_CMAKEDIR})

unset(_tx8_sdk_targets)
unset(_tx8_export_name)
unset(_tx8_includes)
