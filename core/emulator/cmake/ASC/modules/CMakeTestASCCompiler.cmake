# SPDX-License-Identifier: MIT
# The ASC compiler is kwb's own driver: check that it runs (an unknown argument list is refused with
# exit status 2 and a message), without a trial build of a whole emulated program.
execute_process(COMMAND "${CMAKE_ASC_COMPILER}" sim cc RESULT_VARIABLE _kwb_asc_rc OUTPUT_QUIET ERROR_VARIABLE _kwb_asc_err)
if(NOT _kwb_asc_rc EQUAL 2 OR NOT _kwb_asc_err MATCHES "kwb sim cc")
  message(FATAL_ERROR "ASC: the compiler ${CMAKE_ASC_COMPILER} does not answer as `kwb sim cc` (exit ${_kwb_asc_rc}): ${_kwb_asc_err}")
endif()
set(CMAKE_ASC_COMPILER_WORKS TRUE CACHE INTERNAL "")
