# SPDX-License-Identifier: MIT
# Warnings shared by every first-party target. KWB_WERROR (on in the dev preset, so in CI) turns them
# into errors: a new warning fails the build where it is introduced instead of piling up.
option(KWB_WERROR "Treat warnings of first-party code as errors" OFF)
add_library(kwb_warnings INTERFACE)
target_compile_options(kwb_warnings INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter -Wno-missing-field-initializers
  $<$<BOOL:${KWB_WERROR}>:-Werror>)
