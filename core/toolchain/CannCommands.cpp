// SPDX-License-Identifier: MIT
#include "core/toolchain/CannCommands.h"

#include <exception>

#include "core/diag/MsprofParser.h"

namespace kwb {

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
