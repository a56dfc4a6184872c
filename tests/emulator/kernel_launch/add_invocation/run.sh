#!/bin/bash
# SPDX-License-Identifier: MIT
# bash run.sh -r cpu -v Ascend910B1: configure, build and install with CMake against the CANN folder
# ($ASCEND_INSTALL_PATH or $ASCEND_HOME_PATH), generate the data, run, verify ("test pass").
set -e
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR"
RUN_MODE="cpu"
SOC_VERSION="Ascend910B1"
BUILD_TYPE="Debug"
while getopts "r:v:b:" opt; do
  case "$opt" in
    r) RUN_MODE="$OPTARG" ;;
    v) SOC_VERSION="$OPTARG" ;;
    b) BUILD_TYPE="$OPTARG" ;;
    *) echo "usage: bash run.sh -r cpu -v SOC [-b Debug|Release]"; exit 1 ;;
  esac
done
if [ -n "$ASCEND_INSTALL_PATH" ]; then
  CANN="$ASCEND_INSTALL_PATH"
elif [ -n "$ASCEND_HOME_PATH" ]; then
  CANN="$ASCEND_HOME_PATH"
else
  echo "[ERROR] set ASCEND_HOME_PATH (source <cann>/bin/setenv.bash)"
  exit 1
fi
source "$CANN/bin/setenv.bash"
export LD_LIBRARY_PATH="$CANN/tools/tikicpulib/lib:$CANN/tools/tikicpulib/lib/$SOC_VERSION:${LD_LIBRARY_PATH:-}"

rm -rf build out input output ascendc_kernels_bbit
mkdir -p build
cmake -B build -DRUN_MODE="$RUN_MODE" -DSOC_VERSION="$SOC_VERSION" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DCMAKE_INSTALL_PREFIX="$CURRENT_DIR/out" -DASCEND_CANN_PACKAGE_PATH="$CANN"
cmake --build build -j
cmake --install build
cp ./out/bin/ascendc_kernels_bbit ./
mkdir -p input output
python3 scripts/gen_data.py
(
  export LD_LIBRARY_PATH="$CURRENT_DIR/out/lib:$CURRENT_DIR/out/lib64:$CANN/lib64:$LD_LIBRARY_PATH"
  ./ascendc_kernels_bbit
)
python3 scripts/verify_result.py output/output_z.bin output/golden.bin
