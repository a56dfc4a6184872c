#!/bin/bash
# SPDX-License-Identifier: MIT
# bash run.sh -r npu -v Ascend910B1 [--host-input]: configure, build and install with CMake against the
# CANN folder ($ASCEND_INSTALL_PATH or $ASCEND_HOME_PATH), then run the program (it checks itself).
set -e
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR"
RUN_MODE="npu"
SOC_VERSION="Ascend910B1"
while getopts "r:v:" opt; do
  case "$opt" in
    r) RUN_MODE="$OPTARG" ;;
    v) SOC_VERSION="$OPTARG" ;;
    *) echo "usage: bash run.sh -r npu -v SOC [-- program arguments]"; exit 1 ;;
  esac
done
shift $((OPTIND - 1))
CANN="${ASCEND_INSTALL_PATH:-${ASCEND_HOME_PATH:-}}"
[ -n "$CANN" ] || { echo "[ERROR] set ASCEND_HOME_PATH (source <cann>/bin/setenv.bash)"; exit 1; }
source "$CANN/bin/setenv.bash"

rm -rf build out
cmake -B build -DRUN_MODE="$RUN_MODE" -DSOC_VERSION="$SOC_VERSION" -DCMAKE_INSTALL_PREFIX="$CURRENT_DIR/out" \
  -DASCEND_CANN_PACKAGE_PATH="$CANN"
cmake --build build -j
cmake --install build
LD_LIBRARY_PATH="$CURRENT_DIR/out/lib:${LD_LIBRARY_PATH:-}" ./out/bin/npu_launch "$@"
