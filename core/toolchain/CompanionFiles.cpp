// SPDX-License-Identifier: MIT
// A multi-file candidate's other files, written next to its primary file so that `#include "x.h"`
// finds them in the build as in the policy's preprocessed check (docs/candidate-contract.md, "Several
// files").
#include <fstream>

#include "core/model/Candidate.h"
#include "core/model/Hash.h"
#include "core/toolchain/Backend.h"

namespace kwb {

namespace fs = std::filesystem;

bool isReservedCandidateFileName(const std::string& name) {
  // The primary file is always written as kernel.cpp; the rest are what the backends generate there.
  static const char* const kReserved[] = {"kernel.cpp",        "harness_main.cpp",  "harness_acl.cpp",
                                          "CMakeLists.txt",    "kernel_app",        "kwb_tiling.h",
                                          "kernel_operator.h", "kwb_op_kernel.cpp", "kwb_op_host.cpp"};
  for (const char* r : kReserved)
    if (name == r) return true;
  return false;
}

bool writeCompanionFiles(const fs::path& dir, const std::map<std::string, std::string>& companions,
                         std::string& error) {
  const auto problems = candidateFileProblems(companions);
  if (!problems.empty()) {
    error = problems.front();
    return false;
  }
  for (const auto& [name, text] : companions) {
    if (isReservedCandidateFileName(name)) {
      error = "candidate file name \"" + name + "\" is reserved for the workbench's own files; rename it";
      return false;
    }
    const fs::path target = dir / name;
    // A plain name (checked above) stays in `dir`; refuse to write through anything already there.
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
      error = "cannot write " + target.string() + ": a link is in the way";
      return false;
    }
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      error = "cannot write " + target.string();
      return false;
    }
  }
  return true;
}

std::string companionFilesKey(const std::map<std::string, std::string>& companions) {
  std::string material;
  for (const auto& [name, text] : companions)
    material += std::to_string(name.size()) + ":" + name + ";" + hashHex(text) + ";";
  return material.empty() ? std::string() : hashHex(material);
}

}  // namespace kwb
