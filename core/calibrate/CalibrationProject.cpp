// SPDX-License-Identifier: MIT
#include "core/calibrate/CalibrationProject.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/agent/CannProjectExporter.h"
#include "core/agent/ExportFiles.h"

namespace kwb::calibrate {

namespace {

std::string definesList(const CalibrationPoint& point, const char* separator) {
  std::string out;
  for (const auto& [name, value] : point.defines) {
    if (!out.empty()) out += separator;
    out += name + "=" + std::to_string(value);
  }
  return out;
}

int bufferCount(const CalibrationPoint& point) {
  if (point.program == "data_copy.cpp" || point.program == "data_copy_l1.cpp") return 1;
  return point.program == "matmul.cpp" ? 3 : 5;
}

std::string pointCMake(const CalibrationPoint& point, const std::string& soc) {
  CannCMakeSpec spec;
  spec.title = "Calibration point " + point.tag + " (" + point.program + " " + definesList(point, " ") +
               "), emitted by `kwb calibrate emit`\n# (docs/calibration.md). Build and profile: bash run.sh";
  spec.commonDefinitions = definesList(point, " ") + " CAL_KERNEL_ONLY=1";
  spec.commonDefinitionsComment =
      "The point's shape for kernel and host; CAL_KERNEL_ONLY leaves out the program's CPU-mode main.";
  spec.kernelFile = point.program;
  spec.kernelComment = "The kernel source is the emulator's calibration program, byte for byte.";
  spec.kernelDefinitions = definesList(point, " ") + " CAL_KERNEL_ONLY=1";
  spec.kernelDefinitionsComment =
      "The same shape for the kernel library (ascendc_library has its own flags).";
  spec.hostComment = "The host program: main.cpp takes the launch constants from " + point.program + ".";
  (void)soc;
  return cannProjectCMake(spec, soc);
}

std::string pointRunScript(const CalibrationPoint& point, const std::string& soc) {
  std::ostringstream s;
  s << "#!/bin/bash\n# SPDX-License-Identifier: MIT\n# Calibration point " << point.tag
    << ": build for the NPU and profile one launch under msprof op (docs/calibration.md).\n"
    << "#   bash run.sh [-v SOC_VERSION] [-i CANN_INSTALL_PATH]\n"
    << R"KWB(set -e
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR"
SOC_VERSION=")KWB"
    << soc << R"KWB("
while getopts "v:i:" opt; do
  case "$opt" in
    v) SOC_VERSION="$OPTARG" ;;
    i) ASCEND_INSTALL_PATH="$OPTARG" ;;
    *) echo "usage: bash run.sh [-v SOC_VERSION] [-i CANN_INSTALL_PATH]"; exit 1 ;;
  esac
done
_ASCEND_INSTALL_PATH=${ASCEND_INSTALL_PATH:-${ASCEND_HOME_PATH:-/usr/local/Ascend/ascend-toolkit/latest}}
source "$_ASCEND_INSTALL_PATH/bin/setenv.bash" 2>/dev/null || source "$_ASCEND_INSTALL_PATH/../set_env.sh" 2>/dev/null || true
export ASCEND_TOOLKIT_HOME=${_ASCEND_INSTALL_PATH}
export ASCEND_HOME_PATH=${_ASCEND_INSTALL_PATH}

rm -rf build out prof
mkdir -p build
cmake -B build -DRUN_MODE=npu -DSOC_VERSION="${SOC_VERSION}" -DCMAKE_BUILD_TYPE=Release \
  -DASCEND_CANN_PACKAGE_PATH="${_ASCEND_INSTALL_PATH}"
cmake --build build -j
cmake --install build
export LD_LIBRARY_PATH=${CURRENT_DIR}/out/lib:$LD_LIBRARY_PATH
# msprof op warms the kernel up before it measures (--warm-up, default 5) and collects the first launch.
msprof op --output="${CURRENT_DIR}/)KWB"
    << kProfFolderName << R"KWB(" --kernel-name=)KWB" << point.kernel << R"KWB( ./out/bin/ascendc_kernels_bbit
echo "profiled )KWB"
    << point.tag << R"KWB(: ${CURRENT_DIR}/)KWB" << kProfFolderName << R"KWB("
)KWB";
  return s.str();
}

}  // namespace

std::string calibrationHostMain(const CalibrationPoint& point) {
  const int buffers = bufferCount(point);
  std::ostringstream s;
  s << "// SPDX-License-Identifier: MIT\n// Host of calibration point " << point.tag
    << " (kwb calibrate emit): allocates the kernel's GM buffers and\n"
    << "// launches it once on the NPU; msprof op measures the launch. Sizes and blocks come from the "
       "kernel\n// source itself (its CAL_HOST_SHAPES part), so host and kernel cannot disagree.\n"
    << "#define CAL_HOST_SHAPES 1\n#include \"" << point.program << "\"\n#undef CAL_HOST_SHAPES\n\n"
    << R"KWB(#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "aclrtlaunch_)KWB"
    << point.kernel << R"KWB(.h"

#ifdef ASCENDC_CPU_DEBUG
#error "calibration points measure the NPU: build with RUN_MODE=npu (bash run.sh)"
#endif

#define CHECK_ACL(x)                                                                     \
  do {                                                                                   \
    aclError status_ = (x);                                                              \
    if (status_ != ACL_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #x, status_); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

static_assert(kCalLaunchBuffers == )KWB"
    << buffers << R"KWB(, "the kernel's GM buffer count changed; re-run kwb calibrate emit");

int main() {
  const int32_t deviceId = 0;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  uint8_t* gm[kCalLaunchBuffers] = {};
  for (auto& g : gm) {
    CHECK_ACL(aclrtMalloc((void**)&g, kCalBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    // 0x3c3c is a finite half (about 1.06): the timing does not depend on the values.
    CHECK_ACL(aclrtMemset(g, kCalBufferBytes, 0x3c, kCalBufferBytes));
  }
  ACLRT_LAUNCH_KERNEL()KWB"
    << point.kernel << ")(kCalLaunchBlocks, stream";
  for (int k = 0; k < buffers; ++k) s << ", gm[" << k << "]";
  s << R"KWB();
  CHECK_ACL(aclrtSynchronizeStream(stream));
  for (auto* g : gm) CHECK_ACL(aclrtFree(g));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  std::printf(")KWB"
    << point.tag << R"KWB(: launched on %u blocks\n", kCalLaunchBlocks);
  return 0;
}
)KWB";
  return s.str();
}

std::string calibrationManifest(const CalibrationPoint& point, const std::string& soc) {
  nlohmann::json defines = nlohmann::json::object();
  for (const auto& [name, value] : point.defines) defines[name] = value;
  const nlohmann::json j{{"schema", "kwb-calibration-point/1"},
                         {"tag", point.tag},
                         {"program", point.program},
                         {"kernel", point.kernel},
                         {"defines", defines},
                         {"soc", soc}};
  return j.dump(2) + "\n";
}

std::string calibrationReadme(const std::vector<CalibrationPoint>& points, const std::string& soc) {
  std::ostringstream s;
  s << "# Kernel Workbench calibration programs for " << soc << "\n\n"
    << "Emitted by `kwb calibrate emit`. Each folder is one calibration point: a CANN kernel-launch project\n"
    << "of a program from the workbench's bench/calibration/ at one shape, plus `kwb-calibration.json`,\n"
    << "which names the point for `kwb calibrate fit`. See docs/calibration.md in the workbench.\n\n"
    << "On a machine with the NPU and CANN (the toolkit's set_env.sh sourced):\n\n"
    << "```sh\nbash run_all.sh            # builds each point and runs it under msprof op "
       "--output=<point>/prof\n"
    << "```\n\nThen, on any machine with kwb, pass this folder (it stands for all its points) or some of\n"
    << "the point folders (their `prof/` holds the msprof output):\n\n"
    << "```sh\nkwb calibrate fit THIS_FOLDER --soc " << soc << " --out " << soc
    << ".fitted.json --report fit-report.md\n```\n\n"
    << "| Point | Program | Defines |\n|---|---|---|\n";
  for (const auto& p : points)
    s << "| " << p.tag << " | " << p.program << " | " << definesList(p, ", ") << " |\n";
  return s.str();
}

void emitCalibrationProject(const std::vector<CalibrationPoint>& points, const std::string& soc,
                            const std::filesystem::path& outDir) {
  if (points.empty()) throw std::invalid_argument("no calibration points to emit");
  for (const auto& p : points)
    if (calibrationProgramText(p.program).empty())
      throw std::invalid_argument("unknown calibration program '" + p.program + "' of point " + p.tag);
  prepareExportFolder(outDir);
  std::ostringstream all;
  all << "#!/bin/bash\n# SPDX-License-Identifier: MIT\n# Builds and profiles every calibration point "
         "(kwb calibrate emit); arguments go to each run.sh.\nset -e\ncd \"$(dirname \"$0\")\"\n";
  for (const auto& p : points) {
    const auto dir = outDir / p.tag;
    std::filesystem::create_directories(dir / "cmake");
    writeExportFile(dir / p.program, std::string(calibrationProgramText(p.program)));
    writeExportFile(dir / "main.cpp", calibrationHostMain(p));
    writeExportFile(dir / "CMakeLists.txt", pointCMake(p, soc));
    writeExportFile(dir / "cmake" / "cpu_lib.cmake", cannCpuLibCMake());
    writeExportFile(dir / "run.sh", pointRunScript(p, soc), true);
    writeExportFile(dir / kManifestFileName, calibrationManifest(p, soc));
    all << "(cd " << p.tag << " && bash run.sh \"$@\")\n";
  }
  all << "echo \"all points profiled; next: kwb calibrate fit <these folders> --soc " << soc
      << " --out FILE (see README.md)\"\n";
  writeExportFile(outDir / "run_all.sh", all.str(), true);
  writeExportFile(outDir / "README.md", calibrationReadme(points, soc));
}

}  // namespace kwb::calibrate
