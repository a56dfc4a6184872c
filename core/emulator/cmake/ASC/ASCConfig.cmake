# SPDX-License-Identifier: MIT
# find_package(ASC) of the Kernel Workbench emulator (docs/emulator.md, "The samples' own build files"):
# an Ascend C sample's own CMakeLists.txt (find_package(ASC), project(... LANGUAGES ASC CXX)) builds its
# .asc sources for the kwb emulator when configured with -DCMAKE_ASC_RUN_MODE=cpu and
# -DCMAKE_PREFIX_PATH=<kwb install prefix>. The ASC compiler is `kwb sim cc`.
if(KWB_ASC_FOUND)
  return()
endif()

get_filename_component(_kwb_asc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(KWB_ASC_KWB "${_kwb_asc_prefix}/bin/kwb" CACHE FILEPATH "The kwb executable whose `sim cc` compiles ASC sources")
if(NOT EXISTS "${KWB_ASC_KWB}")
  set(ASC_FOUND FALSE)
  set(ASC_NOT_FOUND_MESSAGE "the kwb executable is missing at ${KWB_ASC_KWB}: reinstall Kernel Workbench")
  return()
endif()

# The emulator runs CPU mode only; npu (the devkit's default) and sim need CANN and a device or its
# simulator, which this package does not provide.
if(NOT DEFINED CMAKE_ASC_RUN_MODE OR "${CMAKE_ASC_RUN_MODE}" STREQUAL "")
  set(CMAKE_ASC_RUN_MODE "cpu" CACHE STRING "ASC run mode (the kwb emulator: cpu)")
  message(STATUS "ASC: CMAKE_ASC_RUN_MODE not given; the kwb emulator builds CPU mode")
elseif(NOT "${CMAKE_ASC_RUN_MODE}" STREQUAL "cpu")
  message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE} is not available from the kwb emulator "
                      "package, which builds CPU mode only: configure with -DCMAKE_ASC_RUN_MODE=cpu, or put a CANN "
                      "toolkit first in CMAKE_PREFIX_PATH for npu or sim mode")
endif()

list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/modules")
# The devkit's examples link CANN's host libraries by name (tiling_api, register, platform, ...), which a
# CANN toolkit puts on the linker's path. The ACL subset they call is header-only here, so the CANN-layout
# folder holds empty archives of those names (docs/emulator.md, "The samples' own build files").
if(IS_DIRECTORY "${_kwb_asc_prefix}/share/kernel-workbench/cann/lib64")
  link_directories("${_kwb_asc_prefix}/share/kernel-workbench/cann/lib64")
endif()
set(ASC_FOUND TRUE)
set(KWB_ASC_FOUND TRUE)
message(STATUS "ASC: the Kernel Workbench emulator (${KWB_ASC_KWB} sim cc), run mode cpu")
