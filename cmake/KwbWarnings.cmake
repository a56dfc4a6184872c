# Warnings shared by every first-party target.
add_library(kwb_warnings INTERFACE)
target_compile_options(kwb_warnings INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter -Wno-missing-field-initializers)
