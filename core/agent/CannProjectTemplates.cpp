// SPDX-License-Identifier: MIT
// Text of the exported CANN kernel-launch project (see CannProjectExporter.h).
#include <sstream>

#include "core/agent/CannProjectExporter.h"
#include "core/toolchain/Backend.h"
#include "core/toolchain/SocInfo.h"

namespace kwb {

namespace {

std::string pyDtype(DType t) {
  std::string n(dtypeName(t));
  return n;  // gen_data.py / verify_result.py map these names to numpy types themselves
}

std::string shapeList(const Shape& s, const char* open = "[", const char* close = "]") {
  std::string out = open;
  for (std::size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
  return out + close;
}

const Shape& caseShape(const VerificationCase& c, const std::string& tensor) {
  static const Shape empty;
  auto it = c.shapes.find(tensor);
  return it == c.shapes.end() ? empty : it->second;
}

int attrTypeCode(AttrType t) {
  switch (t) {
    case AttrType::Int:
      return 0;
    case AttrType::Float:
      return 1;
    case AttrType::Bool:
      return 2;
    case AttrType::IntList:
      return 3;
    case AttrType::FloatList:
      return 4;
    case AttrType::String:
      return 5;  // KWB_ATTR_STRING
  }
  return -1;
}

}  // namespace

std::string cannProjectCMake(const Task& task, const std::string& soc) {
  CannCMakeSpec spec;
  spec.title = "Kernel-launch project for " + task.name +
               ", exported by Kernel Workbench (layout of the official\n"
               "# Ascend C kernel_launch samples). Build and run: bash run.sh -r cpu|sim|npu -v " +
               soc;
  spec.kernelFile = task.name + ".cpp";
  spec.kernelComment = "The kernel source is the accepted candidate itself.";
  spec.kernelDefinitions = "KWB_COMPILE_TILING=0";
  spec.kernelDefinitionsComment =
      "The candidate's tiling half runs on the host (tiling_host.cpp); the kernel library holds the kernel "
      "only.";
  spec.hostComment = "The host program: main.cpp plus the tiling half of the candidate (kwb_tiling).";
  spec.hostExtraSource = "tiling_host.cpp";
  spec.hostExtraSourceDefinitions = "KWB_COMPILE_KERNEL=0;KWB_COMPILE_TILING=1";
  return cannProjectCMake(spec, soc);
}

std::string cannProjectCMake(const CannCMakeSpec& spec, const std::string& soc) {
  std::ostringstream s;
  s << "# " << spec.title << "\n"
    << R"KWB(cmake_minimum_required(VERSION 3.16)
project(Ascend_c)

set(RUN_MODE "npu" CACHE STRING "cpu/sim/npu")
set(SOC_VERSION ")KWB"
    << soc << R"KWB(" CACHE STRING "system on chip type")
set(ASCEND_CANN_PACKAGE_PATH "/usr/local/Ascend/ascend-toolkit/latest" CACHE STRING "ASCEND CANN package installation directory")
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE "Debug" CACHE STRING "Build type Release/Debug (default Debug)" FORCE)
endif()
if(CMAKE_INSTALL_PREFIX STREQUAL /usr/local)
  set(CMAKE_INSTALL_PREFIX "${CMAKE_CURRENT_LIST_DIR}/out" CACHE STRING "path for install()" FORCE)
endif()

)KWB";
  if (!spec.commonDefinitions.empty())
    s << "# " << spec.commonDefinitionsComment << "\nadd_compile_definitions(" << spec.commonDefinitions
      << ")\n\n";
  s << "# " << spec.kernelComment << R"KWB(
file(GLOB KERNEL_FILES ${CMAKE_CURRENT_SOURCE_DIR}/)KWB"
    << spec.kernelFile << R"KWB()

if("${RUN_MODE}" STREQUAL "cpu")
  include(cmake/cpu_lib.cmake)
elseif("${RUN_MODE}" STREQUAL "sim" OR "${RUN_MODE}" STREQUAL "npu")
  # sim / npu: the kernel through bisheng with the toolkit's ascendc_library() (as cmake/npu_lib.cmake
  # does in the samples); the launch goes through the generated aclrtlaunch_<kernel>.h.
  if(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
    set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
  elseif(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
    set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
  else()
    message(FATAL_ERROR "ascendc_kernel_cmake does not exist, please check whether the cann package is installed.")
  endif()
  include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
  ascendc_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
  ascendc_include_directories(ascendc_kernels_${RUN_MODE} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  # )KWB"
    << spec.kernelDefinitionsComment << R"KWB(
  ascendc_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE )KWB"
    << spec.kernelDefinitions << R"KWB()
else()
  message(FATAL_ERROR "invalid RUN_MODE: ${RUN_MODE} (cpu, sim or npu)")
endif()

# )KWB"
    << spec.hostComment << R"KWB(
add_executable(ascendc_kernels_bbit ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp)KWB";
  if (!spec.hostExtraSource.empty())
    s << " ${CMAKE_CURRENT_SOURCE_DIR}/" << spec.hostExtraSource
      << ")\nset_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/" << spec.hostExtraSource
      << " PROPERTIES\n  COMPILE_DEFINITIONS \"" << spec.hostExtraSourceDefinitions << "\")\n";
  else
    s << ")\n";
  s << R"KWB(target_include_directories(ascendc_kernels_bbit PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(ascendc_kernels_bbit PRIVATE $<$<STREQUAL:${RUN_MODE},cpu>:ASCENDC_CPU_DEBUG>)
target_compile_options(ascendc_kernels_bbit PRIVATE
  $<BUILD_INTERFACE:$<$<STREQUAL:${RUN_MODE},cpu>:-g>>
  -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall)
target_link_libraries(ascendc_kernels_bbit PRIVATE
  $<BUILD_INTERFACE:$<$<OR:$<STREQUAL:${RUN_MODE},npu>,$<STREQUAL:${RUN_MODE},sim>>:host_intf_pub>>
  $<BUILD_INTERFACE:$<$<STREQUAL:${RUN_MODE},cpu>:tikicpulib::${SOC_VERSION}>>
  ascendc_kernels_${RUN_MODE})
install(TARGETS ascendc_kernels_bbit
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
)KWB";
  return s.str();
}

std::string cannCpuLibCMake() {
  return R"KWB(# cpu: the kernel compiled by the host compiler against the CPU debug library (tikicpulib).
if(NOT DEFINED ENV{CMAKE_PREFIX_PATH})
  set(CMAKE_PREFIX_PATH ${ASCEND_CANN_PACKAGE_PATH}/tools/tikicpulib/lib/cmake)
endif()
find_package(tikicpulib REQUIRED)

add_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
target_include_directories(ascendc_kernels_${RUN_MODE} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE KWB_COMPILE_TILING=0)
target_link_libraries(ascendc_kernels_${RUN_MODE} PUBLIC tikicpulib::${SOC_VERSION})
target_compile_options(ascendc_kernels_${RUN_MODE} PRIVATE -g -O0 -std=c++17)
install(TARGETS ascendc_kernels_${RUN_MODE}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
)KWB";
}

std::string cannHostMain(const Task& task, const VerificationCase& c, const std::string& soc) {
  std::string socError;
  const auto info = loadSocInfo(soc, socError);
  const std::uint32_t aiv = info && info->coreNumAiv ? info->coreNumAiv : 48;
  const std::uint32_t aic = info && info->coreNumAic ? info->coreNumAic : 24;
  const std::uint64_t ub = info && info->ubSize ? info->ubSize : 196352;
  const std::size_t nIn = task.inputs.size(), nOut = task.outputs.size(), n = nIn + nOut;
  std::ostringstream s;
  s << "// Host program for " << task.name << " (case " << c.name << "), exported by Kernel Workbench.\n"
    << "// cpu mode: tikicpulib (GmAlloc, ICPU_RUN_KF); sim/npu: ACL with ACLRT_LAUNCH_KERNEL.\n"
    << R"KWB(#include <cstdint>
#include <cstdio>
#include <cstring>

#include "data_utils.h"
#include "kwb_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_)KWB"
    << task.name << R"KWB(.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void )KWB"
    << task.name << "(";
  for (std::size_t k = 0; k < n; ++k) s << "GM_ADDR a" << k << ", ";
  s << R"KWB(GM_ADDR workspace, GM_ADDR tiling);
#endif

// The SoC as the tiling function sees it (override with -DKWB_CORE_NUM_AIV=... for another part).
#ifndef KWB_CORE_NUM_AIV
#define KWB_CORE_NUM_AIV )KWB"
    << aiv << R"KWB(
#endif
#ifndef KWB_CORE_NUM_AIC
#define KWB_CORE_NUM_AIC )KWB"
    << aic << R"KWB(
#endif
#ifndef KWB_UB_SIZE
#define KWB_UB_SIZE )KWB"
    << ub << R"KWB(ULL
#endif

struct TensorInfo {
  const char* name;
  int32_t dtype;
  int32_t dimNum;
  int64_t dims[KWB_MAX_DIMS];
  const char* file;
};
static const TensorInfo kTensors[)KWB"
    << n << "] = {\n";
  auto emit = [&](const TensorDecl& t, bool input) {
    const Shape& sh = caseShape(c, t.name);
    s << "    {\"" << t.name << "\", " << geDataType(t.dtype) << ", " << sh.size() << ", "
      << shapeList(sh, "{", "}") << ", \"./" << (input ? "input/input_" : "output/output_") << t.name
      << ".bin\"},\n";
  };
  for (const auto& t : task.inputs) emit(t, true);
  for (const auto& t : task.outputs) emit(t, false);
  s << "};\nstatic const uint32_t kInputNum = " << nIn << ", kOutputNum = " << nOut << ";\n\n";
  s << R"KWB(static size_t TensorBytes(const TensorInfo& t) {
  int64_t n = 1;
  for (int32_t k = 0; k < t.dimNum; ++k) n *= t.dims[k];
  return static_cast<size_t>(n) * kwb_dtype_size(t.dtype);
}

static void Describe(KwbTensorDesc& d, const TensorInfo& t) {
  d.dtype = t.dtype;
  d.dimNum = t.dimNum;
  d.elements = 1;
  for (int32_t k = 0; k < t.dimNum; ++k) {
    d.dims[k] = t.dims[k];
    d.elements *= t.dims[k];
  }
}

int32_t main(int32_t argc, char* argv[]) {
  static KwbTilingInput in;
  static KwbTilingOutput out;
  std::memset(&in, 0, sizeof in);
  std::memset(&out, 0, sizeof out);
  in.inputNum = kInputNum;
  in.outputNum = kOutputNum;
  for (uint32_t k = 0; k < kInputNum; ++k) Describe(in.inputs[k], kTensors[k]);
  for (uint32_t k = 0; k < kOutputNum; ++k) Describe(in.outputs[k], kTensors[kInputNum + k]);
)KWB";
  // Attributes of the case (or their defaults).
  const nlohmann::json attrs = task.caseAttrs(c);
  for (const auto& a : task.attrs) {
    const int code = attrTypeCode(a.type);
    if (code < 0 || !attrs.contains(a.name)) continue;
    const nlohmann::json& v = attrs[a.name];
    s << "  {\n    KwbAttr& a = in.attrs[in.attrNum++];\n    std::snprintf(a.name, sizeof a.name, \"%s\", \""
      << a.name << "\");\n    a.type = " << code << ";\n";
    if (v.is_string()) {
      // A JSON string literal is a valid C string literal for the characters dump() escapes.
      s << "    std::snprintf(a.str, sizeof a.str, \"%s\", " << v.dump(-1, ' ', true) << ");\n";
    } else if (v.is_array()) {
      s << "    a.listLen = " << v.size() << ";\n";
      for (std::size_t k = 0; k < v.size() && k < 8; ++k)
        s << "    a.flist[" << k << "] = " << v[k].get<double>() << "; a.ilist[" << k
          << "] = " << static_cast<long long>(v[k].get<double>()) << ";\n";
    } else {
      const double d = v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>();
      s << "    a.f = " << d << "; a.i = " << static_cast<long long>(d) << ";\n";
    }
    s << "  }\n";
  }
  s << R"KWB(  in.coreNumAiv = KWB_CORE_NUM_AIV;
  in.coreNumAic = KWB_CORE_NUM_AIC;
  in.ubSize = KWB_UB_SIZE;
  std::snprintf(in.socVersion, sizeof in.socVersion, "%s", ")KWB"
    << soc << R"KWB(");
  if (kwb_tiling(&in, &out) != KWB_TILING_OK || out.blockDim == 0 || out.blockDim > 65535) {
    std::fprintf(stderr, "kwb_tiling rejected the shapes (blockDim %u)\n", out.blockDim);
    return 1;
  }
  const uint32_t blockDim = out.blockDim;
  const size_t workspaceBytes = out.workspaceSize > 32 ? out.workspaceSize : 32;
  uint8_t* host[)KWB"
    << n << R"KWB(];
#ifdef ASCENDC_CPU_DEBUG
  for (uint32_t k = 0; k < kInputNum + kOutputNum; ++k) {
    host[k] = (uint8_t*)AscendC::GmAlloc(TensorBytes(kTensors[k]));
    if (k < kInputNum) ReadFile(kTensors[k].file, TensorBytes(kTensors[k]), host[k], TensorBytes(kTensors[k]));
  }
  uint8_t* workspace = (uint8_t*)AscendC::GmAlloc(workspaceBytes);
  uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(KWB_TILING_CAPACITY);
  std::memcpy(tiling, out.tilingData, KWB_TILING_CAPACITY);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF()KWB"
    << task.name << ", blockDim, ";
  for (std::size_t k = 0; k < n; ++k) s << "host[" << k << "], ";
  s << R"KWB(workspace, tiling);
  for (uint32_t k = kInputNum; k < kInputNum + kOutputNum; ++k)
    WriteFile(kTensors[k].file, host[k], TensorBytes(kTensors[k]));
  for (uint32_t k = 0; k < kInputNum + kOutputNum; ++k) AscendC::GmFree((void*)host[k]);
  AscendC::GmFree((void*)workspace);
  AscendC::GmFree((void*)tiling);
#else
  CHECK_ACL(aclInit(nullptr));
  int32_t deviceId = 0;
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  uint8_t* dev[)KWB"
    << n << R"KWB(];
  for (uint32_t k = 0; k < kInputNum + kOutputNum; ++k) {
    const size_t bytes = TensorBytes(kTensors[k]);
    CHECK_ACL(aclrtMallocHost((void**)(&host[k]), bytes));
    CHECK_ACL(aclrtMalloc((void**)&dev[k], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (k < kInputNum) {
      ReadFile(kTensors[k].file, bytes, host[k], bytes);
      CHECK_ACL(aclrtMemcpy(dev[k], bytes, host[k], bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  uint8_t* workspace = nullptr;
  uint8_t* tiling = nullptr;
  CHECK_ACL(aclrtMalloc((void**)&workspace, workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&tiling, KWB_TILING_CAPACITY, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(tiling, KWB_TILING_CAPACITY, out.tilingData, KWB_TILING_CAPACITY, ACL_MEMCPY_HOST_TO_DEVICE));
  ACLRT_LAUNCH_KERNEL()KWB"
    << task.name << ")(blockDim, stream, ";
  for (std::size_t k = 0; k < n; ++k) s << "dev[" << k << "], ";
  s << R"KWB(workspace, tiling);
  CHECK_ACL(aclrtSynchronizeStream(stream));
  for (uint32_t k = kInputNum; k < kInputNum + kOutputNum; ++k) {
    const size_t bytes = TensorBytes(kTensors[k]);
    CHECK_ACL(aclrtMemcpy(host[k], bytes, dev[k], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile(kTensors[k].file, host[k], bytes);
  }
  for (uint32_t k = 0; k < kInputNum + kOutputNum; ++k) {
    CHECK_ACL(aclrtFree(dev[k]));
    CHECK_ACL(aclrtFreeHost(host[k]));
  }
  CHECK_ACL(aclrtFree(workspace));
  CHECK_ACL(aclrtFree(tiling));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
#endif
  return 0;
}
)KWB";
  return s.str();
}

std::string cannRunScript(const Task& task, const std::string& soc) {
  std::ostringstream s;
  s << "#!/bin/bash\n# Build and run " << task.name
    << " (exported by Kernel Workbench), as the official samples do:\n"
    << "#   bash run.sh -r cpu|sim|npu -v " << soc << " [-i CANN_INSTALL_PATH] [-b Debug|Release]\n"
    << R"KWB(set -e
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR"
BUILD_TYPE="Debug"
INSTALL_PREFIX="${CURRENT_DIR}/out"
RUN_MODE="npu"
SOC_VERSION=")KWB"
    << soc << R"KWB("
SHORT=r:,v:,i:,b:,p:,
LONG=run-mode:,soc-version:,install-path:,build-type:,install-prefix:,
OPTS=$(getopt -a --options $SHORT --longoptions $LONG -- "$@")
eval set -- "$OPTS"
while :; do
  case "$1" in
    -r | --run-mode) RUN_MODE="$2"; shift 2 ;;
    -v | --soc-version) SOC_VERSION="$2"; shift 2 ;;
    -i | --install-path) ASCEND_INSTALL_PATH="$2"; shift 2 ;;
    -b | --build-type) BUILD_TYPE="$2"; shift 2 ;;
    -p | --install-prefix) INSTALL_PREFIX="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "[ERROR] unexpected option: $1"; exit 1 ;;
  esac
done
case "$RUN_MODE" in cpu|sim|npu) ;; *) echo "[ERROR] RUN_MODE must be cpu, sim or npu"; exit 1 ;; esac

if [ -n "$ASCEND_INSTALL_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_INSTALL_PATH
elif [ -n "$ASCEND_HOME_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_HOME_PATH
elif [ -d "$HOME/Ascend/ascend-toolkit/latest" ]; then
  _ASCEND_INSTALL_PATH=$HOME/Ascend/ascend-toolkit/latest
else
  _ASCEND_INSTALL_PATH=/usr/local/Ascend/ascend-toolkit/latest
fi
source "$_ASCEND_INSTALL_PATH/bin/setenv.bash" 2>/dev/null || source "$_ASCEND_INSTALL_PATH/../set_env.sh" 2>/dev/null || true

export ASCEND_TOOLKIT_HOME=${_ASCEND_INSTALL_PATH}
export ASCEND_HOME_PATH=${_ASCEND_INSTALL_PATH}
if [ "${RUN_MODE}" = "sim" ]; then
  export LD_LIBRARY_PATH=${_ASCEND_INSTALL_PATH}/tools/simulator/${SOC_VERSION}/lib:$LD_LIBRARY_PATH
  export CAMODEL_LOG_PATH=${CAMODEL_LOG_PATH:-./sim_log}
  mkdir -p "$CAMODEL_LOG_PATH"
elif [ "${RUN_MODE}" = "cpu" ]; then
  export LD_LIBRARY_PATH=${_ASCEND_INSTALL_PATH}/tools/tikicpulib/lib:${_ASCEND_INSTALL_PATH}/tools/tikicpulib/lib/${SOC_VERSION}:${_ASCEND_INSTALL_PATH}/tools/simulator/${SOC_VERSION}/lib:$LD_LIBRARY_PATH
fi

rm -rf build out
mkdir -p build
cmake -B build -DRUN_MODE=${RUN_MODE} -DSOC_VERSION=${SOC_VERSION} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} \
  -DCMAKE_INSTALL_PREFIX=${INSTALL_PREFIX} -DASCEND_CANN_PACKAGE_PATH=${_ASCEND_INSTALL_PATH}
cmake --build build -j
cmake --install build

rm -rf input/*.bin output/*.bin
mkdir -p input output
python3 scripts/gen_data.py
export LD_LIBRARY_PATH=${INSTALL_PREFIX}/lib:$LD_LIBRARY_PATH
if [ "${RUN_WITH_TOOLCHAIN}" = "1" ] && [ "${RUN_MODE}" = "npu" ]; then
  msprof op --application=${INSTALL_PREFIX}/bin/ascendc_kernels_bbit
elif [ "${RUN_WITH_TOOLCHAIN}" = "1" ] && [ "${RUN_MODE}" = "sim" ]; then
  msprof op simulator --application=${INSTALL_PREFIX}/bin/ascendc_kernels_bbit
else
  ${INSTALL_PREFIX}/bin/ascendc_kernels_bbit
fi
md5sum output/*.bin
python3 scripts/verify_result.py
)KWB";
  return s.str();
}

std::string cannGenDataScript(const Task& task, const VerificationCase& c) {
  std::ostringstream s;
  s << R"KWB(#!/usr/bin/python3
# Inputs for case )KWB"
    << c.name << R"KWB( of )KWB" << task.name << R"KWB( and the golden output from the task's
# double-precision reference (reference/reference.cpp, built here with the host C++ compiler).
import os
import subprocess
import numpy as np

NUMPY = {"float16": np.float16, "float32": np.float32, "int8": np.int8, "uint8": np.uint8, "int16": np.int16,
         "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "bool": np.uint8}
INPUTS = [)KWB";
  for (const auto& t : task.inputs) {
    ValueHint h;
    if (c.values) h = *c.values;
    if (auto it = c.tensorValues.find(t.name); it != c.tensorValues.end()) h = it->second;
    s << "(\"" << t.name << "\", \"" << pyDtype(t.dtype) << "\", " << shapeList(caseShape(c, t.name))
      << ", \"" << distributionName(h.distribution) << "\", " << (h.low ? std::to_string(*h.low) : "None")
      << ", " << (h.high ? std::to_string(*h.high) : "None") << "), ";
  }
  s << "]\nOUTPUTS = [";
  for (const auto& t : task.outputs)
    s << "(\"" << t.name << "\", \"" << pyDtype(t.dtype) << "\", " << shapeList(caseShape(c, t.name))
      << "), ";
  s << "]\nATTRS = [";
  const nlohmann::json attrs = task.caseAttrs(c);
  for (const auto& a : task.attrs) {
    if (!attrs.contains(a.name)) continue;
    const nlohmann::json& v = attrs[a.name];
    nlohmann::json list = v;
    if (!v.is_array())
      list = nlohmann::json::array({v.is_boolean() ? nlohmann::json(v.get<bool>() ? 1 : 0) : v});
    s << "(\"" << a.name << "\", \"" << attrTypeName(a.type) << "\", " << list.dump() << "), ";
  }
  s << "]\nCASE = \"" << c.name << "\"\n";
  s << R"KWB(

def draw(dtype, shape, dist, low, high, rng):
    if dtype in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "bool"):
        lo = int(low) if low is not None else (0 if dtype.startswith("u") or dtype == "bool" else -100)
        hi = int(high) if high is not None else (1 if dtype == "bool" else 100)
        return rng.integers(lo, hi + 1, size=shape).astype(NUMPY[dtype])
    if low is not None or high is not None:
        lo = low if low is not None else -1.0
        hi = high if high is not None else 1.0
        return rng.uniform(lo, hi, size=shape)
    if dist == "normal":
        return rng.normal(0.0, 1.0, size=shape)
    if dist == "positive":
        return rng.uniform(0.01, 10.0, size=shape)
    if dist == "small":
        return rng.uniform(-1e-3, 1e-3, size=shape)
    if dist == "large":
        return rng.uniform(-1000.0, 1000.0, size=shape)
    if dist == "near-zero":
        return rng.uniform(-1e-2, 1e-2, size=shape)
    return rng.uniform(-1.0, 1.0, size=shape)


def store(values, dtype, path):
    if dtype == "bfloat16":
        bits = np.asarray(values, dtype=np.float32).view(np.uint32)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        rounded.tofile(path)
        return (rounded.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    arr = np.asarray(values).astype(NUMPY[dtype])
    arr.tofile(path)
    return arr.astype(np.float64)


def gen_golden_data():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    os.makedirs(os.path.join(root, "input"), exist_ok=True)
    os.makedirs(os.path.join(root, "output"), exist_ok=True)
    rng = np.random.default_rng(int(os.environ.get("KWB_SEED", "20240607")))
    lines = ["case " + CASE]
    for name, typ, values in ATTRS:
        lines.append("attr %s %s %d %s" % (name, typ, len(values), " ".join(str(float(v)) for v in values)))
    for name, dtype, shape, dist, low, high in INPUTS:
        path = os.path.join(root, "input", "input_%s.bin" % name)
        store(draw(dtype, shape, dist, low, high, rng), dtype, path)
        lines.append("input %s %s %d %s %s" % (name, dtype, len(shape), " ".join(map(str, shape)), path))
    for name, dtype, shape in OUTPUTS:
        path = os.path.join(root, "output", "golden_%s.bin" % name)
        lines.append("output %s %s %d %s %s" % (name, dtype, len(shape), " ".join(map(str, shape)), path))
    manifest = os.path.join(root, "output", "reference.manifest")
    with open(manifest, "w") as f:
        f.write("\n".join(lines) + "\n")
    exe = os.path.join(root, "build", "reference_golden")
    cxx = os.environ.get("CXX", "c++")
    subprocess.check_call([cxx, "-std=c++17", "-O2", "-DKWB_REFERENCE_MAIN", "-I", os.path.join(root, "reference"),
                           os.path.join(root, "reference", "reference.cpp"), "-o", exe])
    subprocess.check_call([exe, manifest])


if __name__ == "__main__":
    gen_golden_data()
)KWB";
  return s.str();
}

std::string cannVerifyScript(const Task& task) {
  std::ostringstream s;
  s << R"KWB(#!/usr/bin/python3
# Compares output/output_<name>.bin with output/golden_<name>.bin (float64) under the workbench's rule
# (docs/candidate-contract.md): atol is capped by the output's size, atol_eff = min(atol, rtol * M) with
# M the largest |e| (never below the dtype's smallest subnormal); an element is wrong when
# |a - e| > atol_eff AND |a - e| > rtol * |e|, grossly wrong beyond 10x both, or NaN/Inf where the
# golden is finite. One grossly wrong element fails; near misses pass up to max_mismatch_ratio.
import os
import sys
import numpy as np

NUMPY = {"float16": np.float16, "float32": np.float32, "int8": np.int8, "uint8": np.uint8, "int16": np.int16,
         "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32, "int64": np.int64, "bool": np.uint8}
TINY = {"float16": 2.0 ** -24, "bfloat16": 2.0 ** -133, "float32": 2.0 ** -149}
GROSS = 10.0
OUTPUTS = [)KWB";
  for (const auto& t : task.outputs) {
    const Tolerance tol = task.toleranceFor(t.dtype);
    s << "(\"" << t.name << "\", \"" << pyDtype(t.dtype) << "\", " << tol.atol << ", " << tol.rtol << ", "
      << tol.maxMismatchRatio << "), ";
  }
  s << R"KWB(]


def load(path, dtype):
    if dtype == "bfloat16":
        bits = np.fromfile(path, dtype=np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    return np.fromfile(path, dtype=NUMPY[dtype]).astype(np.float64)


def verify_result():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ok = True
    for name, dtype, atol, rtol, ratio in OUTPUTS:
        out = load(os.path.join(root, "output", "output_%s.bin" % name), dtype)
        golden = np.fromfile(os.path.join(root, "output", "golden_%s.bin" % name), dtype=np.float64)
        if out.size != golden.size:
            print("[ERROR] %s: %d elements, expected %d" % (name, out.size, golden.size))
            ok = False
            continue
        diff = np.abs(out - golden)
        finite = np.isfinite(golden)
        big = float(np.max(np.abs(golden[finite]))) if finite.any() else 0.0
        atol_eff = atol
        if rtol > 0 and big > 0:
            atol_eff = max(min(atol, rtol * big), TINY.get(dtype, 0.0))
        wrong = (diff > atol_eff) & (diff > rtol * np.abs(golden))
        gross = (diff > GROSS * atol_eff) & (diff > GROSS * rtol * np.abs(golden))
        gross |= ~np.isfinite(out) & finite
        wrong |= gross
        count = int(np.count_nonzero(wrong))
        gross_count = int(np.count_nonzero(gross))
        for index in np.flatnonzero(wrong)[:100]:
            print("data index: %06d, expected: %-.9f, actual: %-.9f, rdiff: %-.6f" %
                  (index, golden[index], out[index], diff[index] / max(abs(golden[index]), 1e-30)))
        limit = ratio * golden.size
        print("%s: %d of %d elements outside atol %g / rtol %g, %d grossly (limit %d near misses, 0 gross)" %
              (name, count, golden.size, atol_eff, rtol, gross_count, int(limit)))
        if gross_count > 0 or count > limit:
            ok = False
    print("test pass" if ok else "[ERROR] result error")
    return ok


if __name__ == "__main__":
    sys.exit(0 if verify_result() else 1)
)KWB";
  return s.str();
}

}  // namespace kwb
