# SPDX-License-Identifier: MIT
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/KwbNoQtInCore.cmake)
kwb_check_no_qt_in_core(${DIR})
