# SPDX-License-Identifier: MIT
# find_package(tikicpulib) of the Kernel Workbench emulator's CANN-layout folder (docs/emulator.md, "The
# samples' own build files"): the kernel-launch samples' cmake/cpu_lib.cmake finds it under
# $ASCEND_CANN_PACKAGE_PATH/tools/tikicpulib/lib/cmake and links tikicpulib::<SOC_VERSION> into their
# kernel library and their host executable. One copy of the emulator runtime goes into the executable
# (whole, and exported with -rdynamic), so that a kernel library built as a shared object uses the same
# runtime state as the host's ICPU_RUN_KF.
if(TARGET tikicpulib::Ascend910B1)
  return()
endif()
get_filename_component(_kwb_cann "${CMAKE_CURRENT_LIST_DIR}/../../../../.." ABSOLUTE)
get_filename_component(_kwb_prefix "${_kwb_cann}/../../.." ABSOLUTE)
set(_kwb_include "${_kwb_prefix}/share/kernel-workbench/emulator/include")
set(_kwb_runtime "${_kwb_prefix}/lib/kernel-workbench/libkwb_sim_runtime.a")
if(NOT EXISTS "${_kwb_runtime}" OR NOT EXISTS "${_kwb_include}/tikicpulib.h")
  set(tikicpulib_FOUND FALSE)
  set(tikicpulib_NOT_FOUND_MESSAGE "the kwb emulator files are missing under ${_kwb_prefix}: reinstall Kernel Workbench")
  return()
endif()
find_package(Threads REQUIRED)

set(_kwb_exe "$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>")
foreach(_kwb_soc Ascend910B1 Ascend910B2 Ascend910B3 Ascend910B4 Ascend310P1 Ascend310P3)
  set(_kwb_arch 2201)
  if(_kwb_soc MATCHES "^Ascend310P")
    set(_kwb_arch 2002)
  endif()
  add_library(tikicpulib::${_kwb_soc} INTERFACE IMPORTED)
  set_target_properties(tikicpulib::${_kwb_soc} PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_kwb_include}"
    INTERFACE_COMPILE_DEFINITIONS
      "ASCENDC_CPU_DEBUG=1;__CCE_KT_TEST__=1;KWB_SIM_SOC_NAME=\"${_kwb_soc}\";KWB_SIM_ARCH=${_kwb_arch};KWB_SIM_AUTO_SYNC=1"
    # As `kwb sim build`: scalar loops stay scalar accesses the emulator records (docs/emulator.md).
    # The samples compile with -D_GLIBCXX_USE_CXX11_ABI=0 to match CANN's prebuilt libraries; the emulator
    # runtime they link instead is built with the C++11 ABI, so that setting is undone after theirs.
    INTERFACE_COMPILE_OPTIONS
      "-fno-strict-aliasing;-fno-tree-vectorize;-fno-tree-loop-distribute-patterns;-U_GLIBCXX_USE_CXX11_ABI;-D_GLIBCXX_USE_CXX11_ABI=1"
    INTERFACE_LINK_DIRECTORIES "${_kwb_cann}/lib64"
    INTERFACE_LINK_OPTIONS "$<${_kwb_exe}:-rdynamic>"
    INTERFACE_SOURCES "$<${_kwb_exe}:${_kwb_cann}/tools/tikicpulib/lib/${_kwb_soc}/kwb_soc_params.cpp>"
    INTERFACE_LINK_LIBRARIES "$<${_kwb_exe}:-Wl,--whole-archive;${_kwb_runtime};-Wl,--no-whole-archive>;Threads::Threads")
endforeach()
set(tikicpulib_FOUND TRUE)
message(STATUS "tikicpulib: the Kernel Workbench emulator (${_kwb_prefix})")
