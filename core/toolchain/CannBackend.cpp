// SPDX-License-Identifier: MIT
#include "core/toolchain/CannBackend.h"
#include "core/base/TextFile.h"
#include "core/toolchain/CannCommands.h"
#include "core/toolchain/OpProjectForm.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/diag/CompilerDiagnosticParser.h"
#include "core/diag/RuntimeErrorParser.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/Sandbox.h"
#include "core/toolchain/ResultFile.h"
#include "core/toolchain/TilingPhase.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {
void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
Diagnostic toolchainError(const std::string& message, std::string_view cat = category::InvalidParam) {
  Diagnostic d;
  d.source = "toolchain";
  d.category = std::string(cat);
  d.message = message;
  return d;
}
CannToolPaths toolPaths(const CannInstallation& c) {
  CannToolPaths t;
  t.root = c.root.string();
  if (c.bisheng) t.bisheng = c.bisheng->string();
  if (c.msprof) t.msprof = c.msprof->string();
  if (c.tikicpulib) t.tikicpulib = c.tikicpulib->string();
  return t;
}
bool deviceVisible() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev", ec))
    if (e.path().filename().string().rfind("davinci", 0) == 0 && e.path().filename() != "davinci_manager")
      return true;
  return false;
}
}  // namespace

CannBackend::CannBackend(BackendOptions options, EnvLookup env)
    : options_(std::move(options)), env_(std::move(env)) {
  cann_ = detectCann(env_);
  mode_ = options_.runMode;
  if (mode_.empty() && cann_) {
    const bool sim = std::find(cann_->simulatorSocs.begin(), cann_->simulatorSocs.end(), options_.soc) !=
                     cann_->simulatorSocs.end();
    mode_ = deviceVisible() ? "npu" : sim ? "sim" : "cpu";
  }
}

RanOn CannBackend::ranOn() const {
  if (mode_ == "npu") return RanOn::Npu;
  if (mode_ == "sim") return RanOn::CannSim;
  return RanOn::CannCpu;
}

std::vector<Diagnostic> CannBackend::prepare(const Task& task, const std::string& candidateSource,
                                             const fs::path& workDir,
                                             const std::map<std::string, std::string>& companions) {
  task_ = &task;
  if (!cann_)
    return {toolchainError(
        "no CANN toolkit found (ASCEND_TOOLKIT_HOME / ASCEND_HOME_PATH unset and nothing under "
        "/usr/local/Ascend or ~/Ascend); use --backend ascend-sim, the emulator")};
  CannWorkspace ws;
  auto problems = prepareCannWorkspace(task, candidateSource, companions, workDir, options_.soc, mode_,
                                       toolPaths(*cann_), ws);
  if (!problems.empty()) return problems;
  soc_ = ws.soc;
  workDir_ = ws.workDir;
  kernelFile_ = ws.workDir / "kernel.cpp";
  harnessFile_ = workDir_ / (mode_ == "cpu" ? "harness_main.cpp" : "harness_acl.cpp");
  binary_ = workDir_ / "kernel_app";
  return {};
}

CompileResult CannBackend::compile() {
  CompileResult r;
  const auto start = std::chrono::steady_clock::now();
  ProcessSpec spec;
  spec.workingDirectory = workDir_.string();
  spec.timeout = std::chrono::milliseconds(600000);
  spec.argv = cannCompileArgv(mode_, toolPaths(*cann_), options_.soc, npuArchFor(options_.soc),
                              workDir_.string(), binary_.string());
  r.commandLine = formatCommandLine(spec);
  const ProcessResult p = ProcessRunner().run(spec);
  r.log = p.stderrText + p.stdoutText;
  r.diagnostics = parseCompilerDiagnostics(r.log);
  for (auto& d : r.diagnostics) {
    if (fs::path(d.file).filename() == "kernel.cpp") d.file = "kernel.cpp";
  }
  std::error_code ec;
  r.ok = p.ok() && fs::exists(binary_, ec);
  if (!r.ok && r.diagnostics.empty())
    r.diagnostics.push_back(toolchainError("the " +
                                               std::string(mode_ == "cpu" ? "g++ (CPU mode)" : "bisheng") +
                                               " build " + p.describeOutcome() + "; see the log",
                                           category::CompileError));
  r.durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

CaseRunResult CannBackend::run(const verify::PreparedCase& prepared, const CaseFiles& files) {
  CaseRunResult out;
  out.run.backend = name();
  out.run.ranOn = ranOn();
  SandboxPolicy policy;
  policy.scratchDir = files.scratch;
  policy.readOnlyPaths = {binary_, files.inDir, cann_->root};
  policy.writableFiles = files.outputs;
  policy.writableFiles.insert(policy.writableFiles.end(), files.inputsAfter.begin(), files.inputsAfter.end());
  policy.wallTimeout = options_.caseTimeout;
  policy.cpuSeconds = static_cast<int>(options_.caseTimeout.count() / 1000) + 5;
  policy.maxProcesses = 256;
  const fs::path root = cann_->root;
  policy.environment["LD_LIBRARY_PATH"] = cannLibraryPath(mode_, toolPaths(*cann_), options_.soc);
  policy.environment["ASCEND_TOOLKIT_HOME"] = root.string();
  // The tiling first, where no tensor data exists (TilingPhase.h).
  {
    TilingPhaseResult tiling = runTilingPhase(*task_, prepared, files, soc_, binary_, options_.caseTimeout,
                                              {cann_->root}, policy.environment);
    out.tiling = tiling.tiling;
    out.run.diagnostics = tiling.diagnostics;
    if (!tiling.ok) {
      out.run.status = tiling.timedOut ? RunStatus::Timeout : RunStatus::Error;
      return out;
    }
  }
  writeText(files.manifest, harnessManifest(*task_, prepared, files, soc_, out.tiling));
  // CANN's tools (msprof, the simulator) write their own logs and profiles: the scratch stays a host
  // folder here, and what the workbench reads from it goes through the msprof parsers.
  if (mode_ == "sim") policy.environment["CAMODEL_LOG_PATH"] = (files.scratch / "sim_log").string();
  const fs::path profDir = files.scratch / "msprof";
  const std::vector<std::string> argv = cannKernelRunArgv(
      mode_, toolPaths(*cann_), options_.soc, profDir.string(), binary_.string(), files.manifest.string());
  const auto start = std::chrono::steady_clock::now();
  const SandboxResult r = Sandbox(policy).run(argv);
  out.run.durationMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.run.stdoutExcerpt = r.stdoutText().substr(0, 4000);
  out.run.stderrExcerpt = r.stderrText().substr(0, 8000);
  if (r.exited) out.run.exitCode = r.exitCode;
  if (r.signaled) out.run.signal = r.signal;
  for (const auto& d : r.diagnostics) out.run.diagnostics.push_back(d);
  for (auto& d : parseRuntimeErrors(r.stdoutText() + "\n" + r.stderrText()))
    out.run.diagnostics.push_back(std::move(d));
  if (r.timedOut)
    out.run.status = RunStatus::Timeout;
  else if (r.signaled)
    out.run.status = RunStatus::Crash;
  else if (r.ok())
    out.run.status = RunStatus::Ok;
  else
    out.run.status = RunStatus::Error;
  if (out.run.status == RunStatus::Error && out.run.diagnostics.empty())
    out.run.diagnostics.push_back(toolchainError("the program " + r.process.describeOutcome() + ": " +
                                                     r.stderrText().substr(0, 2000) +
                                                     "\ncommand: " + r.commandLine(),
                                                 category::RuntimeCrash));
  std::error_code ec;
  if (fs::exists(profDir, ec)) {
    // The first OpBasicInfo.csv / PipeUtilization.csv under the output folder (OPPROF_*/).
    std::string basic, pipe;
    for (const auto& e : fs::recursive_directory_iterator(profDir, ec)) {
      const std::string fname = e.path().filename().string();
      if (fname == "OpBasicInfo.csv" && basic.empty()) basic = readTextFileOrEmpty(e.path());
      if (fname == "PipeUtilization.csv" && pipe.empty()) pipe = readTextFileOrEmpty(e.path());
    }
    out.profile = cannProfileFromCsv(mode_, std::string(ranOnName(ranOn())), profDir.string(), basic, pipe);
  }
  const auto errors = readCaseResults(files, prepared, out, "toolchain");
  if (!errors.empty()) out.run.status = RunStatus::Error;
  out.run.diagnostics.insert(out.run.diagnostics.end(), errors.begin(), errors.end());
  return out;
}

std::map<std::string, std::string> CannBackend::artifacts() const {
  std::map<std::string, std::string> a{{"kernel", kernelFile_.string()},
                                       {"harness", harnessFile_.string()},
                                       {"binary", binary_.string()},
                                       {"cmake_project", (workDir_ / "CMakeLists.txt").string()},
                                       {"run_mode", mode_}};
  if (cann_) a["cann_root"] = cann_->root.string();
  return a;
}

}  // namespace kwb
