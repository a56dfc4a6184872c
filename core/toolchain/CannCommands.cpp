// SPDX-License-Identifier: MIT
#include "core/toolchain/CannCommands.h"

#include <exception>
#include <fstream>

#include "core/diag/MsprofParser.h"
#include "core/toolchain/CannBackend.h"
#include "core/toolchain/OpProjectForm.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {
void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
Diagnostic toolchainError(const std::string& message) {
  Diagnostic d;
  d.source = "toolchain";
  d.category = std::string(category::InvalidParam);
  d.message = message;
  return d;
}
}  // namespace

std::vector<Diagnostic> prepareCannWorkspace(const Task& task, const std::string& candidateSource,
                                             const std::map<std::string, std::string>& companions,
                                             const fs::path& workDir, const std::string& socName,
                                             const std::string& mode, const CannToolPaths& tools,
                                             CannWorkspace& out) {
  {
    std::map<std::string, std::string> all = companions;
    all["kernel.cpp"] = candidateSource;
    std::vector<Diagnostic> problems;
    if (detectOpProjectForm(all, "kernel.cpp", problems))
      return {toolchainError(
          "a candidate in the operator-project form (a TilingFunc and OpDef) is evaluated on ascend-sim; on "
          "CANN, export it as a msopgen project and build it with its build.sh "
          "(docs/candidate-contract.md)")};
  }
  if (mode != "npu" && mode != "sim" && mode != "cpu")
    return {toolchainError("unknown CANN run mode \"" + mode + "\"; expected npu, sim or cpu")};
  if (npuArchFor(socName).empty())
    return {toolchainError("SoC " + socName +
                           " has no bisheng --npu-arch here (supported: Ascend910B*, "
                           "Ascend910_93*, Ascend310P*, Ascend310B*)")};
  if (mode != "cpu" && !tools.bisheng)
    return {
        toolchainError("the CANN toolkit at " + tools.root + " has no bisheng (compiler/ccec_compiler/bin)")};
  if (mode == "cpu" && !tools.tikicpulib)
    return {toolchainError("the CANN toolkit at " + tools.root + " has no tools/tikicpulib for CPU mode")};
  std::string error;
  auto soc = loadSocInfo(socName, error);
  if (!soc) return {toolchainError(error)};
  out.soc = *soc;
  std::error_code ec;
  out.workDir = fs::absolute(workDir, ec);
  fs::create_directories(out.workDir / "include", ec);
  writeText(out.workDir / "kernel.cpp", candidateSource);
  if (std::string cerr; !writeCompanionFiles(out.workDir, companions, cerr)) return {toolchainError(cerr)};
  const fs::path inc = verify::taskIncludeDir(task);
  fs::copy_file(inc / "kwb_tiling.h", out.workDir / "include" / "kwb_tiling.h",
                fs::copy_options::overwrite_existing, ec);
  writeText(out.workDir / "harness_main.cpp", generateCpuHarness(task));
  writeText(out.workDir / "harness_acl.cpp", generateAclHarness(task));
  writeText(out.workDir / "CMakeLists.txt", generateCannCMake(task, socName));
  return {};
}

std::vector<std::string> cannCompileArgv(const std::string& mode, const CannToolPaths& tools,
                                         const std::string& soc, const std::string& npuArch,
                                         const std::string& workDir, const std::string& binary) {
  const std::string& root = tools.root;
  if (mode == "cpu") {
    const std::string lib = tools.tikicpulib.value_or(root + "/tools/tikicpulib/lib");
    return {"g++",
            "-std=c++17",
            "-g",
            "-O0",
            "-DASCENDC_CPU_DEBUG",
            "-D__CCE_KT_TEST__",
            "-I" + workDir + "/include",
            "-I" + root + "/include",
            "-I" + root + "/tools/tikicpulib/include",
            "kernel.cpp",
            "harness_main.cpp",
            "-L" + lib,
            "-L" + lib + "/" + soc,
            "-Wl,-rpath," + lib,
            "-Wl,-rpath," + lib + "/" + soc,
            "-ltikicpulib_npuchk",
            "-ltikicpulib_stubreg",
            "-o",
            binary};
  }
  std::vector<std::string> argv = {tools.bisheng.value_or(root + "/compiler/ccec_compiler/bin/bisheng"),
                                   "-xcce",
                                   "--npu-arch=" + npuArch,
                                   "-O2",
                                   "-std=c++17",
                                   "--cce-auto-sync",
                                   "-I" + workDir + "/include",
                                   "-I" + workDir,
                                   "-I" + root + "/include",
                                   "-I" + root + "/compiler/tikcpp/tikcfw",
                                   "-I" + root + "/compiler/tikcpp/tikcfw/impl",
                                   "-I" + root + "/compiler/tikcpp/tikcfw/interface",
                                   "harness_acl.cpp",
                                   "-L" + root + "/lib64"};
  if (mode == "sim")
    argv.insert(argv.end(), {"-L" + root + "/tools/simulator/" + soc + "/lib", "-lascendcl",
                             "-lruntime_camodel", "-lnpu_drv"});
  else
    argv.insert(argv.end(), {"-lascendcl", "-lruntime"});
  argv.insert(argv.end(), {"-o", binary});
  return argv;
}

std::string cannLibraryPath(const std::string& mode, const CannToolPaths& tools, const std::string& soc) {
  std::string ld = tools.root + "/lib64";
  if (mode == "sim") ld = tools.root + "/tools/simulator/" + soc + "/lib:" + ld;
  if (mode == "cpu" && tools.tikicpulib)
    ld = *tools.tikicpulib + ":" + *tools.tikicpulib + "/" + soc + ":" + ld;
  return ld;
}

std::vector<std::string> cannKernelRunArgv(const std::string& mode, const CannToolPaths& tools,
                                           const std::string& soc, const std::string& profileDir,
                                           const std::string& binary, const std::string& manifest) {
  if (tools.msprof && mode == "npu")
    return {*tools.msprof, "op", "--output=" + profileDir, binary, "kernel", manifest};
  if (tools.msprof && mode == "sim")
    return {*tools.msprof, "op",     "simulator", "--soc-version=" + soc, "--output=" + profileDir,
            binary,        "kernel", manifest};
  return {binary, "kernel", manifest};
}

nlohmann::json cannProfileFromCsv(const std::string& mode, const std::string& ranOn,
                                  const std::string& outputDir, const std::string& opBasicInfoCsv,
                                  const std::string& pipeUtilizationCsv) {
  nlohmann::json profile = {{"tool", mode == "sim" ? "msprof op simulator" : "msprof op"},
                            {"ran_on", ranOn},
                            {"output_dir", outputDir}};
  // OPPROF_*/OpBasicInfo.csv and PipeUtilization.csv (docs/ascend-notes.md §4.1).
  try {
    if (!opBasicInfoCsv.empty()) {
      const auto rows = parseOpBasicInfo(opBasicInfoCsv, outputDir + "/OpBasicInfo.csv");
      if (!rows.empty()) {
        profile["task_duration_us"] = rows.front().taskDurationUs;
        profile["block_dim"] = rows.front().blockDim;
        profile["op_name"] = rows.front().opName;
      }
    }
    if (!pipeUtilizationCsv.empty()) {
      const auto rows = parsePipeUtilization(pipeUtilizationCsv, outputDir + "/PipeUtilization.csv");
      if (auto b = busiestPipe(rows))
        profile["busiest_pipe"] = {{"core", b->core}, {"pipe", b->pipe}, {"mean_ratio", b->meanRatio}};
    }
  } catch (const std::exception& ex) {
    profile["parse_error"] = ex.what();
  }
  return profile;
}

}  // namespace kwb
