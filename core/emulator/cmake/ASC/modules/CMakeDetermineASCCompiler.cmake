# SPDX-License-Identifier: MIT
# project(... LANGUAGES ASC): the ASC compiler is the kwb emulator's driver (ASCConfig.cmake).
if(NOT CMAKE_ASC_COMPILER)
  if(NOT KWB_ASC_KWB)
    message(FATAL_ERROR "ASC: call find_package(ASC) with the Kernel Workbench prefix in CMAKE_PREFIX_PATH first")
  endif()
  set(CMAKE_ASC_COMPILER "${KWB_ASC_KWB}" CACHE FILEPATH "ASC compiler (kwb sim cc)")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
