# SPDX-License-Identifier: MIT
# ascendc_library() of the Kernel Workbench emulator's CANN-layout folder (docs/emulator.md, "The samples'
# own build files"). The kernel-launch samples' NPU branch (cmake/npu_lib.cmake, `run.sh -r npu`, and the
# samples that have only that branch) includes
#   $ASCEND_CANN_PACKAGE_PATH/tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake
# and builds its kernel sources with ascendc_library(<name> STATIC|SHARED <sources>...); the host code then
# includes the generated aclrtlaunch_<kernel>.h and calls ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream,
# args...) or the source's own <<<>>> launches. Here the kernels run on the emulator, not on an NPU (every
# launch says so): each source goes through `kwb sim launch-stubs`, which writes the headers and the
# translation unit (the source, its <<<>>> launches rewritten, and the aclrtlaunch_<kernel> definitions),
# compiled with the emulator's headers and flags of tikicpulib::<SOC_VERSION>.
if(COMMAND ascendc_library)
  return()
endif()

get_filename_component(_kwb_ascendc_cann "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
get_filename_component(_kwb_ascendc_prefix "${_kwb_ascendc_cann}/../../.." ABSOLUTE)
set(KWB_ASCENDC_KWB "${_kwb_ascendc_prefix}/bin/kwb" CACHE FILEPATH
    "The kwb executable whose `sim launch-stubs` prepares ascendc_library() sources")
find_package(tikicpulib REQUIRED PATHS "${_kwb_ascendc_cann}/tools/tikicpulib/lib/cmake" NO_DEFAULT_PATH)

# What the samples' host executables link in the NPU branch (ACL's headers and libraries in CANN): the
# emulator's include folder and the CANN folder's lib64.
if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_include_directories(host_intf_pub INTERFACE "${_kwb_ascendc_cann}/include")
  target_link_directories(host_intf_pub INTERFACE "${_kwb_ascendc_cann}/lib64")
endif()

function(ascendc_library name type)
  if(NOT type STREQUAL "STATIC" AND NOT type STREQUAL "SHARED")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the library type must be STATIC or SHARED")
  endif()
  set(_sources ${ARGN})
  if(NOT _sources)
    message(FATAL_ERROR "ascendc_library(${name} ${type}): no kernel sources given")
  endif()
  set(_soc "${SOC_VERSION}")
  if(NOT _soc)
    set(_soc Ascend910B1)
    message(STATUS "ascendc_library(${name}): SOC_VERSION not set, the kwb emulator models ${_soc}")
  endif()
  if(NOT TARGET tikicpulib::${_soc})
    message(FATAL_ERROR "ascendc_library(${name}): SOC_VERSION=${_soc} is not modelled by the kwb emulator; "
                        "use one of Ascend910B1..4, Ascend310P1, Ascend310P3")
  endif()
  set(_headers "${CMAKE_CURRENT_BINARY_DIR}/include/${name}")
  set(_units)
  set(_dirs)
  foreach(_src IN LISTS _sources)
    get_filename_component(_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_base "${_abs}" NAME)
    get_filename_component(_dir "${_abs}" DIRECTORY)
    list(APPEND _dirs "${_dir}")
    set(_unit "${CMAKE_CURRENT_BINARY_DIR}/${name}_kwb/${_base}.kwb.cpp")
    # Once now, so that the headers exist for the host sources that include them, and again whenever the
    # source changes.
    file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${name}_kwb")
    execute_process(COMMAND "${KWB_ASCENDC_KWB}" sim launch-stubs "${_abs}" --header-dir "${_headers}" -o "${_unit}"
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _written ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "ascendc_library(${name}): ${_err}")
    endif()
    string(STRIP "${_written}" _written)
    string(REPLACE "\n" ";" _written "${_written}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_abs}")
    add_custom_command(OUTPUT "${_unit}" ${_written}
                       COMMAND "${KWB_ASCENDC_KWB}" sim launch-stubs "${_abs}" --header-dir "${_headers}" -o "${_unit}"
                       DEPENDS "${_abs}" COMMENT "kwb sim launch-stubs ${_base}" VERBATIM)
    list(APPEND _units "${_unit}")
  endforeach()
  list(REMOVE_DUPLICATES _dirs)
  add_library(${name} ${type} ${_units})
  # The source's own quoted includes resolve from its folder, as when it is compiled where it lies.
  target_include_directories(${name} PRIVATE ${_dirs})
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${_headers}>")
  target_link_libraries(${name} PUBLIC tikicpulib::${_soc} host_intf_pub)
  if(type STREQUAL "SHARED")
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  # As CANN's: the library under lib (the samples' run.sh puts out/lib on LD_LIBRARY_PATH), the launch
  # headers under include/<name>.
  install(TARGETS ${name} LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)
  install(DIRECTORY "${_headers}/" DESTINATION include/${name})
endfunction()

# The companions of ascendc_library() the samples call on its target. Definitions and include folders
# apply as written (a leading -D is dropped, as CANN's accepts both forms); of the options, those of the
# NPU compiler's code generation (--cce-*, -mllvm <option>, -Xhost-start/-Xhost-end, --npu-arch) mean
# nothing on the CPU and are left out, the others (-g, -O2, -std=..., warnings) apply.
function(ascendc_compile_definitions target scope)
  set(_defs)
  foreach(_d IN LISTS ARGN)
    string(REGEX REPLACE "^-D" "" _d "${_d}")
    list(APPEND _defs "${_d}")
  endforeach()
  target_compile_definitions(${target} ${scope} ${_defs})
endfunction()

function(ascendc_include_directories target scope)
  target_include_directories(${target} ${scope} ${ARGN})
endfunction()

function(ascendc_compile_options target scope)
  set(_opts)
  set(_skip_next FALSE)
  foreach(_o IN LISTS ARGN)
    if(_skip_next)
      set(_skip_next FALSE)
    elseif(_o STREQUAL "-mllvm")
      set(_skip_next TRUE)
    elseif(_o MATCHES "^--cce-" OR _o MATCHES "^--npu-arch" OR _o STREQUAL "-Xhost-start" OR _o STREQUAL "-Xhost-end")
    else()
      list(APPEND _opts "${_o}")
    endif()
  endforeach()
  if(_opts)
    target_compile_options(${target} ${scope} ${_opts})
  endif()
endfunction()
