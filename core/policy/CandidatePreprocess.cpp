// SPDX-License-Identifier: MIT
#include "core/policy/CandidatePreprocess.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "core/base/InstallLayout.h"
#include "core/diag/CompilerDiagnosticParser.h"
#include "core/model/Candidate.h"
#include "core/sandbox/Sandbox.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {

Diagnostic make(std::string_view cat, const std::string& file, const std::string& message) {
  Diagnostic d;
  d.source = "policy";
  d.severity = Severity::Error;
  d.category = std::string(cat);
  d.file = file;
  d.message = message;
  return d;
}

}  // namespace

std::vector<std::string> simPreprocessFlags(const std::string& soc, const std::string& standard,
                                            bool autoSync, const std::vector<std::string>& includeDirs,
                                            const std::vector<std::string>& defines) {
  const std::string emu = currentInstallLayout().emulatorIncludeDir.string();
  const int arch = soc.rfind("Ascend310P", 0) == 0 ? 2002 : 2201;
  // Same order and values as SimBuilder::build's shared flags (-O2 and -pthread change predefined
  // macros, so they are kept too).
  std::vector<std::string> f = {"-std=" + standard,
                                "-O2",
                                "-pthread",
                                "-I" + emu,
                                "-DASCENDC_CPU_DEBUG=1",
                                "-D__CCE_KT_TEST__=1",
                                "-DKWB_SIM_SOC_NAME=\"" + soc + "\"",
                                "-DKWB_SIM_ARCH=" + std::to_string(arch),
                                std::string("-DKWB_SIM_AUTO_SYNC=") + (autoSync ? "1" : "0")};
  for (const auto& d : defines) f.push_back("-D" + d);
  for (const auto& i : includeDirs) f.push_back("-I" + i);
  f.insert(f.end(), {"-include", "tikicpulib.h"});
  return f;
}

PreprocessResult preprocessCandidate(const PreprocessSpec& spec) {
  PreprocessResult r;
  const std::string reported = spec.reportedFileName.empty() ? spec.fileName : spec.reportedFileName;
  std::error_code ec;
  fs::create_directories(spec.scratchDir, ec);
  const fs::path scratch = fs::absolute(spec.scratchDir, ec);
  const fs::path src = scratch / spec.fileName;
  {
    std::string text = spec.sourceText;
    if (text.empty() && !spec.sourcePath.empty()) {
      std::ifstream in(spec.sourcePath, std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::ofstream out(src, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      r.diagnostics.push_back(
          make(category::SandboxSetup, reported, "cannot write the candidate to " + src.string()));
      return r;
    }
  }
  r.candidatePath = src.string();
  for (const auto& [name, text] : spec.companions) {
    if (!isValidCandidateFileName(name) || name == spec.fileName) {
      r.diagnostics.push_back(make(category::PolicyViolation, name.substr(0, 80),
                                   "candidate file name \"" + name.substr(0, 80) + "\" is not allowed"));
      return r;
    }
    std::ofstream out(scratch / name, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      r.diagnostics.push_back(make(category::SandboxSetup, name,
                                   "cannot write the candidate file to " + (scratch / name).string()));
      return r;
    }
    r.companionPaths[name] = (scratch / name).string();
  }

  const std::string cxx = spec.compiler.empty() ? emulatorCompiler() : spec.compiler;
  std::vector<std::string> argv = {cxx, "-E", "-dD"};
  argv.insert(argv.end(), spec.flags.begin(), spec.flags.end());
  argv.push_back(src.string());

  SandboxPolicy policy;
  policy.scratchDir = scratch;
  policy.readOnlyPaths = spec.readOnlyPaths;
  if (policy.readOnlyPaths.empty())
    for (std::size_t i = 0; i < spec.flags.size(); ++i) {
      const std::string& f = spec.flags[i];
      if (f.rfind("-I", 0) == 0 && f.size() > 2 && fs::exists(f.substr(2), ec))
        policy.readOnlyPaths.emplace_back(f.substr(2));
      if (f == "-include" && i + 1 < spec.flags.size() && fs::path(spec.flags[i + 1]).is_absolute())
        policy.readOnlyPaths.emplace_back(fs::path(spec.flags[i + 1]).parent_path());
    }
  policy.wallTimeout = spec.wallTimeout;
  policy.cpuSeconds = spec.cpuSeconds;
  policy.addressSpaceBytes = spec.addressSpaceBytes;
  policy.outputCap = spec.outputCap;
  policy.maxFileSizeBytes = spec.outputCap;
  policy.maxProcesses = 16;  // the driver and cc1plus
  const SandboxResult sr = Sandbox(policy).run(argv);
  r.commandLine = sr.commandLine();
  r.text = sr.stdoutText();

  // The preprocessor's own complaints: only those about the candidate's lines are passed on; text it
  // printed about any other file (a host file the candidate tried to include) is never quoted.
  const std::vector<Diagnostic> parsed = parseCompilerDiagnostics(sr.stderrText());
  bool elsewhere = false;
  for (const auto& d0 : parsed) {
    if (!d0.isError()) continue;
    // The candidate's own files are passed on under their names; any other file's text never is.
    std::string own = d0.file == src.string() ? reported : std::string();
    for (const auto& [name, path] : r.companionPaths)
      if (d0.file == path) own = name;
    if (own.empty()) {
      elsewhere = true;
      continue;
    }
    Diagnostic d = d0;
    d.file = own;
    d.notes.clear();
    d.category = std::string(category::CompileError);
    r.diagnostics.push_back(std::move(d));
  }
  if (elsewhere)
    r.diagnostics.push_back(
        make(category::CompileError, reported,
             "preprocessing failed inside a file the candidate included (its text is not shown)"));
  const bool limits =
      sr.timedOut || sr.signaled || sr.process.outputCapKilled || sr.stdoutText().size() >= spec.outputCap;
  if (limits) {
    Diagnostic d = make(sr.timedOut ? category::Timeout : category::PolicyViolation, reported,
                        "preprocessing the candidate hit the sandbox limits (" +
                            std::to_string(spec.wallTimeout.count() / 1000) + " s, " +
                            std::to_string(spec.addressSpaceBytes >> 20) + " MiB, " +
                            std::to_string(spec.outputCap >> 20) +
                            " MiB of output): does it #include a device, a huge file or itself?");
    r.diagnostics.push_back(std::move(d));
  }
  for (const auto& d : sr.diagnostics)
    if (d.category == category::SandboxSetup) r.diagnostics.push_back(d);
  if (!sr.exited && !limits && sr.diagnostics.empty() && r.diagnostics.empty())
    r.diagnostics.push_back(
        make(category::CompileError, reported, "the preprocessor did not run: " + sr.process.describe()));
  if (sr.exited && sr.exitCode != 0 && r.diagnostics.empty())
    r.diagnostics.push_back(
        make(category::CompileError, reported,
             "the preprocessor failed (exit status " + std::to_string(sr.exitCode) + ")"));
  r.ok = sr.exited && sr.exitCode == 0 && !limits &&
         std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                      [](const Diagnostic& d) { return d.isError(); });
  return r;
}

}  // namespace kwb
