// SPDX-License-Identifier: MIT
#include "core/eval/CandidatePolicy.h"

#include <optional>

#include <nlohmann/json.hpp>

#include "core/base/InstallLayout.h"
#include "core/eval/PolicyVerdictCache.h"
#include "core/model/Candidate.h"
#include "core/policy/CandidatePreprocess.h"
#include "core/policy/PolicyChecker.h"
#include "core/policy/PreprocessedPolicy.h"
#include "core/toolchain/OpProjectForm.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

Diagnostic policyDiagnostic(const std::string& file, const std::string& message) {
  Diagnostic d;
  d.source = "policy";
  d.severity = Severity::Error;
  d.category = std::string(category::PolicyViolation);
  d.file = file;
  d.message = message;
  return d;
}

// Length-prefixed, so that no two different sets of files spell the same text.
void appendField(std::string& out, const std::string& name, const std::string& value) {
  out += name + " " + std::to_string(value.size()) + "\n" + value + "\n";
}

// Everything the verdict depends on that the request and the task carry.
std::string policyMaterial(const Task& task, const Backend& backend, const EvalRequest& req) {
  std::string m;
  appendField(m, "backend", backend.name());
  appendField(m, "task", nlohmann::json(task).dump());
  for (const auto& f : backend.preprocessFlags(task)) appendField(m, "flag", f);
  appendField(m, "primary-name", req.candidateName);
  appendField(m, "primary", req.candidateSource);
  for (const auto& [name, text] : req.companionFiles) {
    appendField(m, "companion-name", name);
    appendField(m, "companion", text);
  }
  return m;
}

// What the preprocessor may read besides the candidate: the emulator's and the task's headers and
// any other -I folder of the build.
std::vector<fs::path> headerFolders(const Task& task, const Backend& backend) {
  std::vector<fs::path> folders = {currentInstallLayout().emulatorIncludeDir, verify::taskIncludeDir(task)};
  for (const auto& f : backend.preprocessFlags(task))
    if (f.rfind("-I", 0) == 0 && f.size() > 2) folders.emplace_back(f.substr(2));
  return folders;
}

// The policy itself: lexical checks on every file, then the preprocessed token stream of every unit
// the build compiles.
CandidatePolicyOutcome runPolicy(const Task& task, const Backend& backend, const EvalRequest& req) {
  CandidatePolicyOutcome out;
  std::vector<Diagnostic>& policy = out.problems;
  PolicyOptions po;
  po.kernelName = task.name;
  po.kernelParamCount = static_cast<int>(task.inputs.size() + task.outputs.size() + 2);
  po.apiHeaderDirs = {currentInstallLayout().emulatorIncludeDir.string(),
                      verify::taskIncludeDir(task).string()};
  // Untrusted names first: nothing is written under a name that is not a plain, unreserved one.
  for (const auto& problem : candidateFileProblems(req.companionFiles))
    policy.push_back(policyDiagnostic(req.candidateName, problem));
  for (const auto& [name, text] : req.companionFiles)
    if (isReservedCandidateFileName(name) || name == req.candidateName)
      policy.push_back(
          policyDiagnostic(name, "candidate file name \"" + name +
                                     "\" is reserved for the primary file or the workbench's own "
                                     "files; rename it"));
  // The operator-project form (core/toolchain/OpProjectForm.h): a TilingFunc instead of kwb_tiling,
  // and the kernel sees the tiling headers first, as msopgen's build gives them.
  std::map<std::string, std::string> allFiles = req.companionFiles;
  allFiles[req.candidateName] = req.candidateSource;
  const std::optional<OpProjectForm> opForm =
      detectOpProjectForm(allFiles, req.candidateName, out.formProblems);
  if (opForm) {
    po.requireTiling = false;
    // The op_host source runs only in the tiling sandbox: the standard library's containers may be
    // used there (the kernel unit, which includes the tiling headers, keeps the kernel rules).
    po.hostCodeFiles = {opForm->hostFile};
    po.hostCodeFiles.insert(po.hostCodeFiles.end(), opForm->otherHostFiles.begin(),
                            opForm->otherHostFiles.end());
  }
  if (policy.empty())
    policy = checkCandidateFilesPolicy(req.candidateSource, req.candidateName, req.companionFiles, po);
  if (!policy.empty() || !out.formProblems.empty()) return out;
  std::error_code pec;
  if (opForm) {
    // What the build compiles: the kernel behind its tiling headers, and each op_host source.
    const fs::path scratch = fs::absolute(req.workDir) / "policy";
    std::vector<std::string> hostFiles = {opForm->hostFile};
    hostFiles.insert(hostFiles.end(), opForm->otherHostFiles.begin(), opForm->otherHostFiles.end());
    for (std::size_t unit = 0; unit <= hostFiles.size() && policy.empty(); ++unit) {
      PreprocessSpec pp;
      if (unit == 0) {
        pp.sourceText = opProjectKernelUnit(*opForm, req.candidateName);
        pp.fileName = kOpKernelUnitName;
        pp.reportedFileName = kOpKernelUnitName;
        pp.companions = allFiles;
      } else {
        const std::string& host = hostFiles[unit - 1];
        pp.sourceText = allFiles.at(host);
        pp.fileName = host;
        pp.reportedFileName = host;
        pp.companions = allFiles;
        pp.companions.erase(host);
      }
      pp.scratchDir = scratch;
      pp.flags = backend.preprocessFlags(task);
      for (const std::string& d : opProjectDefines(*opForm, task)) pp.flags.push_back("-D" + d);
      fs::remove_all(pp.scratchDir, pec);
      const PreprocessResult pre = preprocessCandidate(pp);
      PolicyOptions upo = po;
      upo.ownEntryName = unit != 0 ? std::string() : upo.kernelName;
      upo.kernelName.clear();
      upo.kernelParamCount.reset();
      upo.hostCode = unit != 0;
      if (!pre.text.empty())
        for (auto& d : checkPreprocessedPolicy(pre.text, pre.candidatePath, pp.reportedFileName, upo,
                                               pre.companionPaths))
          policy.push_back(std::move(d));
      for (const auto& d : pre.diagnostics)
        if (d.isError()) policy.push_back(d);
      fs::remove_all(pp.scratchDir, pec);
    }
    return out;
  }
  // What the compiler will see: the token stream after translation phases 1-4, checked against the
  // allow-list (docs/candidate-contract.md). The preprocessor runs sandboxed.
  PreprocessSpec pp;
  pp.sourceText = req.candidateSource;
  pp.reportedFileName = req.candidateName;
  pp.companions = req.companionFiles;
  pp.scratchDir = fs::absolute(req.workDir) / "policy";
  pp.flags = backend.preprocessFlags(task);
  fs::remove_all(pp.scratchDir, pec);
  const PreprocessResult pre = preprocessCandidate(pp);
  if (!pre.text.empty())
    for (auto& d :
         checkPreprocessedPolicy(pre.text, pre.candidatePath, req.candidateName, po, pre.companionPaths))
      policy.push_back(std::move(d));
  for (const auto& d : pre.diagnostics)
    if (d.isError()) policy.push_back(d);
  fs::remove_all(pp.scratchDir, pec);
  return out;
}

}  // namespace

CandidatePolicyOutcome checkCandidateForEvaluation(const Task& task, const Backend& backend,
                                                   const EvalRequest& req, const fs::path& cacheDir) {
  const PolicyVerdictCache cache(cacheDir.empty() ? fs::path() : cacheDir / "policy");
  std::vector<std::string> warnings;
  const std::string key = cacheDir.empty() ? std::string()
                                           : cache.keyFor(policyMaterial(task, backend, req),
                                                          headerFolders(task, backend), emulatorCompiler());
  if (!key.empty() && cache.knownClean(key, warnings)) {
    CandidatePolicyOutcome out;
    out.fromCache = true;
    out.warnings = std::move(warnings);
    return out;
  }
  CandidatePolicyOutcome out = runPolicy(task, backend, req);
  if (!key.empty() && out.problems.empty() && out.formProblems.empty()) cache.rememberClean(key, warnings);
  out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
  return out;
}

}  // namespace kwb
