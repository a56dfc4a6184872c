// SPDX-License-Identifier: MIT
#include "core/agent/OpProjectImport.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/agent/KernelLaunchImport.h"
#include "core/base/TextFile.h"
#include "core/toolchain/OpProjectSource.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

// The op_host the msopgen export generates for a kwb_tiling candidate: it includes
// ../op_kernel/<kernel file> with KWB_COMPILE_TILING set to reach the kernel's kwb_tiling.
bool includesKernelForKwbTiling(const std::string& hostText, const std::string& kernelFileName) {
  return hostText.find("#include \"../op_kernel/" + kernelFileName + "\"") != std::string::npos &&
         hostText.find("KWB_COMPILE_TILING") != std::string::npos;
}

// The kernel file defines the kwb_tiling entry of the kwb_tiling form.
bool definesKwbTiling(const std::string& kernelText) {
  return kernelText.find("int kwb_tiling(") != std::string::npos;
}

Diagnostic importError(const std::string& file, int line, std::string message) {
  return opProjectProblem(file, line, std::move(message));
}

// The project's files of one folder (op_host, op_kernel): plain files only, each bounded.
std::map<std::string, std::string> readFolder(const fs::path& dir, const std::string& rel,
                                              std::vector<Diagnostic>& errors) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!e.is_regular_file(ec) || e.is_symlink(ec)) continue;
    const std::string name = e.path().filename().string();
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".h" && ext != ".hpp" && ext != ".cc") continue;
    if (out.size() >= kMaxCandidateFiles) {
      errors.push_back(
          importError(rel, 0, "more than " + std::to_string(kMaxCandidateFiles) + " source files"));
      break;
    }
    std::string path = rel;
    path += '/';
    path += name;
    try {
      out[path] = readTextFileOrThrow(e.path(), kMaxCandidateFileBytes);
    } catch (const std::exception& ex) {
      errors.push_back(importError(path, 0, ex.what()));
    }
  }
  return out;
}

// The kernel entry's name in an op_kernel source: `__global__ __aicore__ void NAME(`.
std::string kernelEntryName(const std::string& text, int& line) {
  std::size_t at = text.find("__global__");
  while (at != std::string::npos) {
    const std::size_t v = text.find("void", at);
    const std::size_t paren = text.find('(', v);
    if (v != std::string::npos && paren != std::string::npos && text.find(';', at) > v) {
      std::string name = text.substr(v + 4, paren - v - 4);
      name.erase(
          std::remove_if(name.begin(), name.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n'; }),
          name.end());
      if (!name.empty()) {
        line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')) + 1;
        return name;
      }
    }
    at = text.find("__global__", at + 1);
  }
  return {};
}

}  // namespace

void completeImportedTask(nlohmann::json j, const fs::path& dir, const OperatorProjectImportOptions& options,
                          OperatorProjectImport& r) {
  auto& errors = r.errors;
  if (!errors.empty()) return;
  if (!options.soc.empty()) j["soc"] = options.soc;
  try {
    const std::string casesText = readTextFileOrThrow(options.casesFile, 4u << 20);
    j["cases"] = nlohmann::json::parse(casesText);
  } catch (const nlohmann::json::exception& ex) {
    errors.push_back(importError(options.casesFile.string(), 0, std::string("invalid JSON: ") + ex.what()));
  } catch (const std::exception& ex) {
    errors.push_back(importError(options.casesFile.string(), 0, ex.what()));
  }
  try {
    r.referenceSource = readTextFileOrThrow(options.referenceFile, kMaxCandidateFileBytes);
  } catch (const std::exception& ex) {
    errors.push_back(importError(options.referenceFile.string(), 0, ex.what()));
  }
  if (!errors.empty()) return;
  try {
    r.task = parseTask(
        j, "the task imported from " + dir.string() + " (cases from " + options.casesFile.string() + ")");
  } catch (const std::exception& ex) {
    errors.push_back(importError(options.casesFile.string(), 0, ex.what()));
    return;
  }
}

OperatorProjectImport importOperatorProject(const fs::path& dir,
                                            const OperatorProjectImportOptions& options) {
  OperatorProjectImport r;
  auto& errors = r.errors;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    errors.push_back(importError(dir.string(), 0, "not a folder"));
    return r;
  }
  const auto host = readFolder(dir / "op_host", "op_host", errors);
  const auto kernel = readFolder(dir / "op_kernel", "op_kernel", errors);
  if (host.empty() && kernel.empty()) {
    if (looksLikeKernelLaunchSample(dir)) return importKernelLaunchSample(dir, options);
    errors.push_back(importError(dir.string(), 0,
                                 "no op_host/ and op_kernel/ folders and no kernel source beside a main.cpp: "
                                 "neither a msopgen operator project nor a kernel-launch sample folder"));
    return r;
  }
  // op_host/<op>.cpp: the source that registers the OpDef.
  std::string hostPath;
  for (const auto& [path, text] : host)
    if (path.size() > 4 && path.substr(path.size() - 4) == ".cpp" && registersOperator(text)) hostPath = path;
  if (hostPath.empty()) {
    errors.push_back(importError("op_host", 0,
                                 "missing OpDef: no op_host/*.cpp registers an operator (a class deriving "
                                 "from OpDef, registered with OP_ADD)"));
    return r;
  }
  std::map<std::string, std::string> otherHostSources;
  for (const auto& [path, text] : host)
    if (path != hostPath && path.size() > 4 && path.substr(path.size() - 4) == ".cpp")
      otherHostSources.emplace(path, text);
  const auto sig = parseOpDef(host.at(hostPath), hostPath, errors, otherHostSources);
  std::string kernelPath, entry;
  int entryLine = 0;
  for (const auto& [path, text] : kernel)
    if (path.size() > 4 && path.substr(path.size() - 4) == ".cpp") {
      entry = kernelEntryName(text, entryLine);
      if (!entry.empty()) {
        kernelPath = path;
        break;
      }
    }
  if (kernelPath.empty())
    errors.push_back(
        importError("op_kernel", 0,
                    "missing kernel: no op_kernel/*.cpp defines extern \"C\" __global__ __aicore__ "
                    "void <op>(...)"));
  if (options.casesFile.empty())
    errors.push_back(importError("--cases", 0,
                                 "the verification cases are required: --cases FILE (a JSON array "
                                 "of task.json \"cases\" entries, docs/task-format.md)"));
  if (options.referenceFile.empty())
    errors.push_back(importError("--reference", 0, "the reference is required: --reference reference.cpp"));
  if (!sig || !errors.empty()) return r;
  for (auto& d : opDefColumnProblems(*sig, options.dtypeColumn)) errors.push_back(std::move(d));
  if (!errors.empty()) return r;

  // The task: signature from the OpDef, cases from the user.
  nlohmann::json j;
  j["name"] = entry;
  // Nothing of where the project lay: the same project imports as the same task from any folder.
  j["description"] = "Imported from an operator project: OpDef " + sig->opType + " in " + hostPath + ".";
  auto tensors = [&](const std::vector<OpDefParam>& params) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : params) {
      a.push_back({{"name", p.name}, {"dtype", std::string(dtypeName(p.dtypes[options.dtypeColumn]))}});
    }
    return a;
  };
  j["inputs"] = tensors(sig->inputs);
  j["outputs"] = tensors(sig->outputs);
  nlohmann::json attrs = nlohmann::json::array();
  for (const auto& a : sig->attrs) {
    if (a.type.empty()) {
      errors.push_back(importError(hostPath, a.line,
                                   "attribute \"" + a.name + "\" has no type (.Float(...), .Int(...), ...)"));
      continue;
    }
    nlohmann::json d = {{"name", a.name}, {"type", a.type}};
    if (!a.value.is_null() && !a.required) d["default"] = a.value;
    attrs.push_back(d);
  }
  if (!attrs.empty()) j["attrs"] = attrs;
  completeImportedTask(std::move(j), dir, options, r);
  if (!errors.empty()) return r;
  // The candidate: the project's kernel, TilingFunc and headers under their candidate names.
  r.candidate.origin = Origin::Imported;
  auto add = [&](const std::string& path, const std::string& text) {
    const std::string name = candidateNameForProjectPath(path);
    if (r.candidate.files.count(name))
      errors.push_back(importError(
          path, 0, "has the candidate name \"" + name + "\" of another project file; rename one"));
    r.candidate.files[name] = text;
    r.projectFiles[path] = text;
  };
  auto isHeader = [](const std::string& path) {
    return path.size() > 4 &&
           (path.substr(path.size() - 2) == ".h" || path.substr(path.size() - 4) == ".hpp");
  };
  add(kernelPath, kernel.at(kernelPath));
  // The headers the sources may include; kwb_tiling.h is the workbench's own (an exported kwb_tiling
  // project carries a copy).
  for (const auto& [path, text] : kernel)
    if (isHeader(path) && fs::path(path).filename() != "kwb_tiling.h") add(path, text);
  // A project the workbench exported from a kwb_tiling candidate (OpProjectExporter.h): its op_host is
  // the generated bridge that includes the kernel file for the kernel's own kwb_tiling, so the
  // candidate is that kernel file alone, in the kwb_tiling form.
  const bool kwbTilingExport =
      includesKernelForKwbTiling(host.at(hostPath), fs::path(kernelPath).filename().string()) &&
      definesKwbTiling(kernel.at(kernelPath));
  // The other op_host sources build into the tiling program with the OpDef's (the tiling may be
  // registered there with IMPL_OP_OPTILING).
  auto isSource = [](const std::string& path) {
    return path.size() > 4 && path.substr(path.size() - 4) == ".cpp";
  };
  for (const auto& [path, text] : host)
    if ((path == hostPath && !kwbTilingExport) || (path != hostPath && isSource(path) && !kwbTilingExport) ||
        (path != hostPath && isHeader(path) && fs::path(path).filename() != "kwb_tiling.h"))
      add(path, text);
  for (const auto& p : candidateFileProblems(r.candidate.files))
    errors.push_back(importError(dir.string(), 0, p));
  // AddConfig("ascend910b") names a SoC family: the task's SoC (Ascend910B1) lower-cased without its
  // trailing digits.
  std::string family = r.task.soc;
  for (char& c : family) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!family.empty() && std::isdigit(static_cast<unsigned char>(family.back()))) family.pop_back();
  if (!sig->configs.empty() &&
      std::find(sig->configs.begin(), sig->configs.end(), family) == sig->configs.end()) {
    std::string listed;
    for (const auto& c : sig->configs) listed += (listed.empty() ? "" : ", ") + c;
    Diagnostic w = importError(hostPath, sig->line,
                               "the OpDef is configured for " + listed + ", not for the task's SoC " +
                                   r.task.soc + " (" + family +
                                   "); its tiling and kernel run with that SoC's cores and memory (--soc "
                                   "chooses another)");
    w.severity = Severity::Warning;
    r.warnings.push_back(std::move(w));
  }
  return r;
}

std::vector<Diagnostic> writeCandidateIntoOperatorProject(const Candidate& candidate,
                                                          const fs::path& projectDir) {
  std::vector<Diagnostic> errors;
  for (const auto& p : candidateFileProblems(candidate.files))
    errors.push_back(importError("candidate", 0, p));
  if (!errors.empty()) return errors;
  const PrimaryFileChoice primary = choosePrimaryFile(candidate.files);
  std::string host;
  for (const auto& [name, text] : candidate.files)
    if (name != primary.name && isCandidateSourceFileName(name) && registersOperator(text)) host = name;
  if (host.empty()) {
    errors.push_back(importError(
        "candidate", 0, "the candidate is not in the operator-project form (no source file calls OP_ADD)"));
    return errors;
  }
  for (const auto& [name, text] : candidate.files) {
    fs::path target = projectDir / projectPathForCandidateName(name, primary.name);
    std::error_code ec;
    // A header goes back where the project keeps it: op_kernel/ when it is there (a tiling-key or
    // plain-struct header both sides include), op_host/ otherwise.
    if (name != primary.name && !isCandidateSourceFileName(name) &&
        fs::is_regular_file(projectDir / "op_kernel" / name, ec))
      target = projectDir / "op_kernel" / name;
    fs::create_directories(target.parent_path(), ec);
    if (fs::is_symlink(fs::symlink_status(target, ec))) {
      errors.push_back(importError(target.string(), 0, "a link is in the way"));
      continue;
    }
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) errors.push_back(importError(target.string(), 0, "cannot write"));
  }
  return errors;
}

}  // namespace kwb
