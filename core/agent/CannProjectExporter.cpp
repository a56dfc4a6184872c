// SPDX-License-Identifier: MIT
#include "core/agent/CannProjectExporter.h"

#include <fstream>
#include <stdexcept>

#include "core/agent/CandidateEvaluator.h"
#include "core/agent/ExportFiles.h"
#include "core/toolchain/OpProjectForm.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& p, const std::string& text, bool executable = false) {
  writeExportFile(p, text, executable);
}

void copyFile(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec)
    throw std::runtime_error("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
}

const char* kDataUtils = R"(// File and ACL helpers in the style of the samples' data_utils.h.
#pragma once
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stdout, "[ERROR]  " fmt "\n", ##args)

#ifndef ASCENDC_CPU_DEBUG
#define CHECK_ACL(x)                                                                        \
  do {                                                                                      \
    aclError __ret = x;                                                                     \
    if (__ret != ACL_ERROR_NONE) {                                                          \
      std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, static_cast<int>(__ret)); \
    }                                                                                       \
  } while (0)
#endif

inline bool ReadFile(const std::string& filePath, size_t fileSize, void* buffer, size_t bufferSize) {
  std::ifstream file(filePath, std::ios::binary);
  if (!file.is_open()) {
    ERROR_LOG("Open file failed. path = %s", filePath.c_str());
    return false;
  }
  file.seekg(0, std::ios::end);
  const size_t size = static_cast<size_t>(file.tellg());
  file.seekg(0, std::ios::beg);
  if (size > bufferSize || size < fileSize) {
    ERROR_LOG("file %s has %zu bytes, expected %zu", filePath.c_str(), size, fileSize);
    return false;
  }
  file.read(static_cast<char*>(buffer), static_cast<std::streamsize>(fileSize));
  return true;
}

inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size) {
  std::ofstream file(filePath, std::ios::binary | std::ios::trunc);
  if (!file.is_open()) {
    ERROR_LOG("Open file failed. path = %s", filePath.c_str());
    return false;
  }
  file.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
  return static_cast<bool>(file);
}
)";

}  // namespace

fs::path exportCannProject(const Task& task, const Iteration& iteration, const fs::path& dir,
                           const CannExportOptions& o) {
  if (iteration.candidate.empty())
    throw std::invalid_argument("iteration " + std::to_string(iteration.id) + " has no candidate");
  if (task.cases.empty()) throw std::invalid_argument("task " + task.name + " has no verification case");
  {
    std::vector<Diagnostic> problems;
    if (detectOpProjectForm(iteration.candidate.files, choosePrimaryFile(iteration.candidate.files).name,
                            problems))
      throw std::invalid_argument(
          "iteration " + std::to_string(iteration.id) +
          " is an operator-project candidate (a TilingFunc, no kwb_tiling): it exports as "
          "a msopgen project (exportOperatorProject), not a kernel-launch project");
  }
  const VerificationCase* c = o.caseName.empty() ? &task.cases.front() : task.findCase(o.caseName);
  if (!c) throw std::invalid_argument("task " + task.name + " has no case named " + o.caseName);
  prepareExportFolder(dir);
  const std::string soc = o.soc.empty() ? task.soc : o.soc;
  const fs::path include = o.includeDir.empty() ? verify::taskIncludeDir(task) : o.includeDir;

  const auto [fileName, source] = primaryCandidateFile(iteration.candidate);
  writeFile(dir / (task.name + ".cpp"), source);
  // The headers a multi-file candidate's primary file includes go next to it, under their names.
  for (const auto& [name, text] : iteration.candidate.files) {
    if (name == fileName) continue;
    static const char* const kGenerated[] = {"tiling_host.cpp", "kwb_tiling.h", "CMakeLists.txt", "main.cpp",
                                             "data_utils.h",    "run.sh",       "README.md"};
    for (const char* g : kGenerated)
      if (name == g || name == task.name + ".cpp")
        throw std::invalid_argument("candidate file " + name +
                                    " has the name of a file the export generates");
    writeFile(dir / name, text);
  }
  writeFile(
      dir / "tiling_host.cpp",
      "// The tiling half of " + task.name +
          ".cpp, built for the host (KWB_COMPILE_KERNEL=0,\n"
          "// KWB_COMPILE_TILING=1 are set by CMakeLists.txt).\n#include \"kwb_tiling.h\"\n#include \"" +
          task.name + ".cpp\"\n");
  copyFile(include / "kwb_tiling.h", dir / "kwb_tiling.h");
  writeFile(dir / "CMakeLists.txt", cannProjectCMake(task, soc));
  writeFile(dir / "cmake" / "cpu_lib.cmake", cannCpuLibCMake());
  writeFile(dir / "main.cpp", cannHostMain(task, *c, soc));
  writeFile(dir / "data_utils.h", kDataUtils);
  writeFile(dir / "run.sh", cannRunScript(task, soc), true);
  writeFile(dir / "scripts" / "gen_data.py", cannGenDataScript(task, *c), true);
  writeFile(dir / "scripts" / "verify_result.py", cannVerifyScript(task), true);
  if (task.files.reference)
    copyFile(*task.files.reference, dir / "reference" / "reference.cpp");
  else
    throw std::invalid_argument("task " + task.name + " has no reference.cpp to generate the golden data");
  copyFile(include / "kwb_reference.h", dir / "reference" / "kwb_reference.h");
  std::string readme = "# " + task.name +
                       " (exported by Kernel Workbench)\n\n"
                       "Iteration " +
                       std::to_string(iteration.id) + " (" + std::string(originName(iteration.origin)) +
                       ", verdict " +
                       (iteration.verdict ? std::string(verdictName(*iteration.verdict)) : "none") + ")";
  if (iteration.profile && iteration.profile->totalUs > 0)
    readme += ", estimated " + std::to_string(iteration.profile->totalUs) + " us on " +
              iteration.profile->soc + " (" + iteration.profile->source + ", not a device measurement)";
  readme +=
      ".\n\nShapes: case `" + c->name +
      "` of the task.\n\n"
      "```\nbash run.sh -r cpu -v " +
      soc +
      "   # CPU debug (tikicpulib)\n"
      "bash run.sh -r sim -v " +
      soc +
      "   # CANN simulator\n"
      "bash run.sh -r npu -v " +
      soc +
      "   # device\n```\n\n"
      "Files: `" +
      task.name +
      ".cpp` is the accepted candidate unchanged (kernel half built by ascendc_library, tiling half by\n"
      "tiling_host.cpp), `main.cpp` the host program, `scripts/gen_data.py` writes the inputs and the golden "
      "from\n"
      "`reference/reference.cpp`, `scripts/verify_result.py` applies the task's tolerance.\n";
  writeFile(dir / "README.md", readme);
  return dir;
}

}  // namespace kwb
