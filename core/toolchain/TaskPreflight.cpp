// SPDX-License-Identifier: MIT
#include "core/toolchain/TaskPreflight.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "core/base/InstallLayout.h"
#include "core/toolchain/SocInfo.h"

namespace kwb {

namespace fs = std::filesystem;

std::string unknownSocProblem(const std::string& soc) {
  const auto known = knownSocs();
  for (const auto& k : known)
    if (k == soc) return {};
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  return "unknown soc \"" + soc + "\"; known: " +
         (list.empty() ? "none (no files in " + socDirectory(currentInstallLayout()).string() + ")" : list);
}

std::string taskProblemBeforeEvaluation(const Task& task, const std::string& socOverride) {
  const std::string where = task.files.dir.empty() ? task.name : task.files.dir.string();
  std::error_code ec;
  if (!task.files.reference || !fs::is_regular_file(*task.files.reference, ec))
    return "task " + where +
           ": no reference.cpp beside task.json; the verifier runs it to get the expected outputs "
           "(docs/task-format.md)";
  const std::string soc = socOverride.empty() ? task.soc : socOverride;
  if (auto why = unknownSocProblem(soc); !why.empty())
    return (socOverride.empty() ? "task " + where + ": /soc: " : "--soc: ") + why;
  return {};
}

std::string workFolderProblem(const fs::path& dir) {
  const std::string p = fs::absolute(dir).string();
  if (p.find_first_of(" \t\n\r") != std::string::npos)
    return "\"" + p + "\" contains whitespace, which the evaluation's compiler command lines cannot carry";
  return {};
}

std::string environmentProblemBeforeEvaluation() {
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  if (ec) return "no usable temporary folder ($TMPDIR): " + ec.message();
  const std::string t = tmp.string();
  if (auto why = workFolderProblem(tmp); !why.empty())
    return "the temporary folder ($TMPDIR) " + why + ": set TMPDIR to a folder without it";
  if (!fs::is_directory(tmp, ec)) return "the temporary folder \"" + t + "\" ($TMPDIR) does not exist";
  if (::access(tmp.c_str(), W_OK | X_OK) != 0)
    return "the temporary folder \"" + t + "\" ($TMPDIR) is not writable";
  return {};
}

}  // namespace kwb
