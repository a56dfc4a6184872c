# SPDX-License-Identifier: MIT
# The Kernel Workbench emulator's CANN-layout folder: the variables the kernel-launch samples' run.sh
# reads (`kwb sim env` prints the same). Source it: . <folder>/bin/setenv.bash
_kwb_cann="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ASCEND_HOME_PATH="${_kwb_cann}"
export ASCEND_TOOLKIT_HOME="${_kwb_cann}"
export ASCEND_INSTALL_PATH="${_kwb_cann}"
export ASCEND_HOME_DIR="${_kwb_cann}"
# The CCE compiler of the older kernel-launch samples (compiler/ccec_compiler/bin/ccec is `kwb sim cc`).
export PATH="${_kwb_cann}/compiler/ccec_compiler/bin:${PATH}"
unset _kwb_cann
