# SPDX-License-Identifier: MIT
cmake_minimum_required(VERSION 3.25)
# Script form of the layer check: cmake -DCORE_DIR=<core> -DSPEC_FILE=<kwb_layers.spec> -P this file.
# Exits non-zero and lists each broken include (tests/layers runs it on the real tree and on a tree
# with a deliberately wrong include).
include(${CMAKE_CURRENT_LIST_DIR}/KwbLayers.cmake)
file(READ ${SPEC_FILE} spec)
string(STRIP "${spec}" spec)
kwb_layers_verify("${CORE_DIR}" "${spec}" errors)
if(errors)
  string(REPLACE ";" "\n  " text "${errors}")
  message(FATAL_ERROR "Layer rule broken:\n  ${text}")
endif()
message(STATUS "layers: every include follows the declared dependencies")
