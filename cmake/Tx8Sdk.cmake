# The build tree as a tx8 SDK (no install step): exports the firmware-side libraries as imported targets tx8::<name>
# and writes <binary dir>/sdk/tx8Config.cmake, which firmware bundles find with
#   find_package(tx8 REQUIRED CONFIG PATHS <binary dir>/sdk NO_DEFAULT_PATH)
# and build with tx8_add_bundle(). The host build's sdk/ is the cmodel SDK; the riscv-gcc sub-build's
# (<host build>/riscv-gcc/sdk) is the RISC-V one. See cmake/README.md.
set(TX8_SDK_DIR ${CMAKE_BINARY_DIR}/sdk)

# Exported as tx8::<name>: the libraries a program on the chip links, and what they link themselves.
set(_tx8_sdk_targets tx8_hal_api tx8_cmodel tx8_runtime tx8_oplib)
if(TX8_TARGET STREQUAL "riscv")
  list(APPEND _tx8_sdk_targets tx8_hal_riscv tx8_riscv_api tx8_riscv_rt)
  set(TX8_SDK_LINKER_SCRIPT ${TX8_RISCV_LINKER_SCRIPT})
else()
  list(APPEND _tx8_sdk_targets tx8_hal_cmodel)
  set(TX8_SDK_LINKER_SCRIPT "")
endif()
foreach(t IN LISTS _tx8_sdk_targets)
  string(REGEX REPLACE "^tx8_" "" _tx8_export_name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${_tx8_export_name})
endforeach()
export(TARGETS ${_tx8_sdk_targets} NAMESPACE tx8:: FILE ${TX8_SDK_DIR}/tx8Targets.cmake)

set(TX8_SDK_TARGET ${TX8_TARGET})
set(TX8_SDK_VERSION ${PROJECT_VERSION})
set(TX8_SDK_QEMU_RUN ${CMAKE_SOURCE_DIR}/riscv/qemu/tx8-qemu-run)
configure_file(${CMAKE_CURRENT_LIST_DIR}/tx8Config.cmake.in ${TX8_SDK_DIR}/tx8Config.cmake @ONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${TX8_SDK_DIR}/tx8ConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
unset(_tx8_sdk_targets)
unset(_tx8_export_name)
