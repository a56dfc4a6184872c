# SPDX-License-Identifier: MIT
# The kernel library of the NPU branch: CANN's ascendc.cmake (here the kwb emulator's) provides
# ascendc_library(), which writes aclrtlaunch_<kernel>.h for every kernel of the sources.
set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
if(NOT EXISTS ${ASCENDC_CMAKE_DIR}/ascendc.cmake)
  message(FATAL_ERROR "no ascendc.cmake under ${ASCENDC_CMAKE_DIR}")
endif()
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
ascendc_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
