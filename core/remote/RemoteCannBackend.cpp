// SPDX-License-Identifier: MIT
#include "core/remote/RemoteCannBackend.h"

#include <chrono>
#include <cstdio>
#include <fstream>

#include "core/diag/CompilerDiagnosticParser.h"
#include "core/diag/RuntimeErrorParser.h"
#include "core/model/Hash.h"
#include "core/process/ProcessRunner.h"
#include "core/remote/RemoteRunScript.h"
#include "core/toolchain/CannBackend.h"
#include "core/toolchain/TilingJudgement.h"

namespace kwb::remote {

namespace fs = std::filesystem;

namespace {
constexpr const char* kBuiltMarker = "kwb-remote: built";

Diagnostic remoteError(const std::string& message, std::string_view cat = category::InvalidParam) {
  Diagnostic d;
  d.source = "remote";
  d.category = std::string(cat);
  d.message = message;
  return d;
}
void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}
// Everything but run.sh's isolation marker, for logs and excerpts.
std::string withoutMarkers(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    if (line.rfind("kwb-remote: ", 0) != 0) out += line + "\n";
    pos = nl + 1;
  }
  return out;
}
// A local tar stream of `names` under `dir` (the workbench's own files, so trusted).
bool tarOf(const fs::path& dir, const std::vector<std::string>& names, std::string& data,
           std::string& error) {
  ProcessSpec spec;
  spec.argv = {"tar", "-cf", "-", "-C", dir.string()};
  spec.argv.insert(spec.argv.end(), names.begin(), names.end());
  spec.outputCap = std::size_t{1} << 30;
  spec.timeout = std::chrono::milliseconds(120000);
  ProcessResult p = ProcessRunner().run(spec);
  if (!p.ok() || p.stdoutTruncated) {
    error = "could not pack " + dir.string() + " for the remote host: tar " + p.describeOutcome() + " " +
            p.stderrText.substr(0, 500);
    return false;
  }
  data = std::move(p.stdoutText);
  return true;
}
}  // namespace

std::string remoteWorkspaceFor(const std::string& remoteRoot, const fs::path& localWorkDir) {
  return remoteRoot + "/w-" + hex16(fnv1a64(fs::absolute(localWorkDir).lexically_normal().string()));
}

std::string remoteCasePath(const fs::path& localCaseDir, const std::string& remoteCaseDir,
                           const fs::path& localFile) {
  return remoteCaseDir + "/" + localFile.lexically_relative(localCaseDir).generic_string();
}

RemoteCannBackend::RemoteCannBackend(BackendOptions options, RemoteBackendSettings settings,
                                     std::shared_ptr<const RemoteHostFacts> facts)
    : options_(std::move(options)),
      settings_(std::move(settings)),
      session_(settings_.ssh),
      facts_(std::move(facts)) {
  mode_ = options_.runMode.empty() && facts_ ? remoteRunMode(*facts_, options_.soc) : options_.runMode;
}

RanOn RemoteCannBackend::ranOn() const {
  if (mode_ == "npu") return RanOn::Npu;
  if (mode_ == "sim") return RanOn::CannSim;
  return RanOn::CannCpu;
}

Diagnostic RemoteCannBackend::connectionError(const RemoteRun& r, const std::string& step) const {
  const std::string why = !r.failure.message.empty() ? r.failure.message : r.process.describeOutcome();
  return remoteError(step + " on " + settings_.ssh.target.url() + " failed: " + why);
}

std::vector<Diagnostic> RemoteCannBackend::prepare(const Task& task, const std::string& candidateSource,
                                                   const fs::path& workDir,
                                                   const std::map<std::string, std::string>& companions) {
  task_ = &task;
  const std::string host = settings_.ssh.target.url();
  if (!facts_) return {remoteError("the remote host " + host + " was not probed")};
  if (!facts_->cann)
    return {
        remoteError("no CANN toolkit found on " + host +
                    " (ASCEND_TOOLKIT_HOME / ASCEND_HOME_PATH unset in its login environment and nothing "
                    "under /usr/local/Ascend or ~/Ascend); install CANN there, or name it with --remote-cann "
                    "DIR; `kwb doctor --host " +
                    host + "` checks the host")};
  if (!facts_->haveTar || !facts_->haveTimeout)
    return {remoteError(host + " lacks tar or timeout (coreutils), which the remote runs need")};
  CannWorkspace ws;
  auto problems = prepareCannWorkspace(task, candidateSource, companions, workDir, options_.soc, mode_,
                                       *facts_->cann, ws);
  for (auto& d : problems) d.message = host + ": " + d.message;
  if (!problems.empty()) return problems;
  soc_ = ws.soc;
  workDir_ = ws.workDir;
  std::error_code ec;
  fs::create_directories(workDir_ / "kwb-remote", ec);
  writeText(workDir_ / "kwb-remote" / "run.sh", remoteRunScript());
  workspaceFiles_ = {"kernel.cpp",     "harness_acl.cpp", "harness_main.cpp",
                     "CMakeLists.txt", "include",         "kwb-remote"};
  for (const auto& [name, text] : companions) workspaceFiles_.push_back(name);
  const std::string root =
      !settings_.remoteDir.empty() ? settings_.remoteDir : facts_->home + "/.cache/kwb-remote";
  remoteRoot_ = root;
  remoteWork_ = remoteWorkspaceFor(root, workDir_);
  if (!isSafeRemotePath(remoteWork_))
    return {remoteError("the remote workspace folder " + remoteWork_ +
                        " is not an absolute path of letters, digits and / _ . - + @ : ,")};
  return {};
}

RemoteCannBackend::~RemoteCannBackend() {
  if (remoteWork_.empty() || settings_.keepRemoteWorkspace || !isSafeRemotePath(remoteWork_)) return;
  // Best effort: a host gone away keeps the folder until a later build prunes it.
  (void)session_.run("rm -rf " + remoteWork_, std::nullopt, std::chrono::milliseconds(30000), 4096);
}

CompileResult RemoteCannBackend::compile() {
  CompileResult r;
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    r.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  std::string tar, error;
  if (!tarOf(workDir_, workspaceFiles_, tar, error)) {
    r.diagnostics.push_back(remoteError(error));
    return finish();
  }
  const std::string& w = remoteWork_;
  const std::vector<std::string> build =
      cannCompileArgv(mode_, *facts_->cann, options_.soc, npuArchFor(options_.soc), w, w + "/kernel_app");
  const std::string buildLine = remoteCommandLine(build);
  // Workspaces of killed runs: only the w-* folders this backend names, only when untouched for long.
  const std::string prune = "find " + remoteRoot_ + " -mindepth 1 -maxdepth 1 -type d -name 'w-*' -mmin +" +
                            std::to_string(settings_.staleWorkspaceMinutes) +
                            " -exec rm -rf {} + 2>/dev/null; ";
  const std::string command = prune + "rm -rf " + w + " && mkdir -p " + w + " && tar -xf - -C " + w +
                              " || { echo 'kwb-remote: cannot write the workspace " + w +
                              "' >&2; exit 96; }; cd " + w + " && " + buildLine +
                              " && test -x kernel_app && echo '" + kBuiltMarker + "'";
  r.commandLine = "ssh " + settings_.ssh.target.url() + " 'cd " + w + " && " + buildLine + "'";
  const RemoteRun run = session_.run(command, tar, std::chrono::milliseconds(600000), std::size_t{16} << 20);
  if (!run.connected()) {
    r.diagnostics.push_back(connectionError(run, "the remote build"));
    return finish();
  }
  r.log = withoutMarkers(run.process.stderrText + run.process.stdoutText);
  r.diagnostics = parseCompilerDiagnostics(r.log);
  for (auto& d : r.diagnostics)
    if (fs::path(d.file).filename() == "kernel.cpp") d.file = "kernel.cpp";
  r.ok = run.process.ok() && run.process.stdoutText.find(kBuiltMarker) != std::string::npos;
  if (run.process.exitCode == 96)
    r.diagnostics.push_back(remoteError(withoutMarkers(run.process.stderrText).empty()
                                            ? "cannot write the remote workspace " + w
                                            : "cannot write the remote workspace " + w + ": " +
                                                  run.process.stderrText.substr(0, 1000)));
  else if (!r.ok && r.diagnostics.empty())
    r.diagnostics.push_back(remoteError(
        "the remote " + std::string(mode_ == "cpu" ? "g++ (CPU mode)" : "bisheng") + " build on " +
            settings_.ssh.target.url() + " " + run.process.describeOutcome() + "; see the log",
        category::CompileError));
  return finish();
}

bool RemoteCannBackend::fetchFile(const std::string& remote, const fs::path& local, std::size_t maxBytes,
                                  std::vector<Diagnostic>& diagnostics) const {
  const RemoteRun r =
      session_.run("cat " + remote, std::nullopt, std::chrono::milliseconds(120000), maxBytes + 1);
  if (!r.connected()) {
    diagnostics.push_back(connectionError(r, "fetching " + remote));
    return false;
  }
  if (!r.process.exited || r.process.exitCode != 0) return false;  // absent: the reader says what is missing
  writeText(local, r.process.stdoutText);  // a wrong size is caught by the reader (readResultFile)
  return true;
}

std::string RemoteCannBackend::fetchText(const std::string& findName, const std::string& underDir) const {
  const RemoteRun r =
      session_.run("f=$(find " + underDir + " -name " + findName +
                       " -type f 2>/dev/null | head -n 1); [ -n \"$f\" ] && head -c 1048576 \"$f\"",
                   std::nullopt, std::chrono::milliseconds(60000), std::size_t{1} << 20);
  return r.connected() && r.process.ok() ? r.process.stdoutText : std::string();
}

CaseRunResult RemoteCannBackend::run(const verify::PreparedCase& prepared, const CaseFiles& files) {
  CaseRunResult out;
  out.run.backend = name();
  out.run.ranOn = ranOn();
  const std::string& w = remoteWork_;
  const std::string rc = w + "/cases/" + files.dir.filename().string();
  if (!isSafeRemotePath(rc)) {
    out.run.status = RunStatus::Error;
    out.run.diagnostics.push_back(
        remoteError("the case folder name " + files.dir.filename().string() +
                    " cannot be used on the remote host (letters, digits, _ . - only)"));
    return out;
  }
  auto remote = [&](const fs::path& local) { return remoteCasePath(files.dir, rc, local); };
  const CannToolPaths& tools = *facts_->cann;
  const std::string binary = w + "/kernel_app";
  const std::vector<std::pair<std::string, std::string>> env = {
      {"LD_LIBRARY_PATH", cannLibraryPath(mode_, tools, options_.soc)}, {"ASCEND_TOOLKIT_HOME", tools.root}};
  const int seconds = static_cast<int>(std::max<long long>(1, options_.caseTimeout.count() / 1000));
  auto fail = [&](Diagnostic d) {
    out.run.status = RunStatus::Error;
    out.run.diagnostics.push_back(std::move(d));
    return out;
  };

  // 1. The tiling, where no tensor data exists: only the shapes-only manifest is shipped yet.
  writeText(files.tilingManifest, tilingManifest(*task_, prepared, soc_));
  std::string tar, error;
  if (!tarOf(files.dir, {"tiling"}, tar, error)) return fail(remoteError(error));
  RemoteRunRequest tilingRun;
  tilingRun.script = w + "/kwb-remote/run.sh";
  tilingRun.seconds = std::min(seconds, 30);
  tilingRun.workDir = rc + "/work";
  tilingRun.readOnly = {binary, rc + "/tiling", tools.root};
  tilingRun.writable = {rc + "/out"};
  tilingRun.environment = env;
  tilingRun.argv = {binary, "tiling", remote(files.tilingManifest), remote(files.tilingResult)};
  const std::string tilingLine = remoteRunCommand(tilingRun);
  const RemoteRun t =
      session_.run("rm -rf " + rc + " && mkdir -p " + rc + "/out " + rc + "/msprof && tar -xf - -C " + rc +
                       " && : > " + remote(files.tilingResult) + " && " + tilingLine,
                   tar, std::chrono::milliseconds((tilingRun.seconds + 60) * 1000LL));
  if (!t.connected()) return fail(connectionError(t, "the remote tiling run"));
  TilingPhaseResult tiling;
  tiling.timedOut = t.process.exitCode == 124;
  std::vector<Diagnostic> fetchProblems;
  fetchFile(remote(files.tilingResult), files.tilingResult, 64u << 10, fetchProblems);
  if (!fetchProblems.empty()) return fail(fetchProblems.front());
  tiling.tiling = readTilingResult(files.tilingResult, error);
  judgeTilingRun(tiling, t.process.ok(), t.process.describeOutcome(), withoutMarkers(t.process.stderrText),
                 error, "ssh " + settings_.ssh.target.url() + " " + tilingLine);
  out.tiling = tiling.tiling;
  out.run.diagnostics = tiling.diagnostics;
  if (!tiling.ok) {
    out.run.status = tiling.timedOut ? RunStatus::Timeout : RunStatus::Error;
    return out;
  }

  // 2. The kernel, with the validated tiling, under msprof.
  CaseFiles rf = files;
  for (auto* v : {&rf.inputs, &rf.inputsAfter, &rf.outputsInit, &rf.outputs})
    for (auto& p : *v) p = remote(p);
  writeText(files.manifest, harnessManifest(*task_, prepared, rf, soc_, out.tiling));
  if (!tarOf(files.dir, {"in"}, tar, error)) return fail(remoteError(error));
  RemoteRunRequest kernelRun = tilingRun;
  kernelRun.seconds = seconds;
  kernelRun.readOnly = {binary, rc + "/in", tools.root};
  kernelRun.writable = {rc + "/out", rc + "/msprof"};
  if (mode_ == "sim") kernelRun.environment.emplace_back("CAMODEL_LOG_PATH", rc + "/work/sim_log");
  kernelRun.argv =
      cannKernelRunArgv(mode_, tools, options_.soc, rc + "/msprof", binary, remote(files.manifest));
  std::string touch;
  for (const auto* v : {&rf.outputs, &rf.inputsAfter})
    for (const auto& p : *v) touch += ": > " + p.string() + " && ";
  const std::string kernelLine = remoteRunCommand(kernelRun);
  const auto start = std::chrono::steady_clock::now();
  const RemoteRun k = session_.run("tar -xf - -C " + rc + " && " + touch + kernelLine, tar,
                                   std::chrono::milliseconds((seconds + 60) * 1000LL));
  out.run.durationMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!k.connected()) return fail(connectionError(k, "the remote kernel run"));
  const std::string stderrText = withoutMarkers(k.process.stderrText);
  out.run.stdoutExcerpt = k.process.stdoutText.substr(0, 4000);
  out.run.stderrExcerpt = stderrText.substr(0, 8000);
  const int code = k.process.exitCode;
  if (k.process.exited) out.run.exitCode = code;
  for (auto& d : parseRuntimeErrors(k.process.stdoutText + "\n" + stderrText))
    out.run.diagnostics.push_back(std::move(d));
  if (remoteIsolation(k.process.stderrText) == "rlimits-only") {
    Diagnostic d = remoteError("the run on " + settings_.ssh.target.url() +
                                   " had rlimits and a time limit only: bubblewrap does not work there",
                               category::SandboxSetup);
    d.severity = Severity::Warning;
    out.run.diagnostics.push_back(std::move(d));
  }
  if (code == 124 || code == 137) {
    out.run.status = RunStatus::Timeout;
    out.run.diagnostics.push_back(remoteError("the kernel run on " + settings_.ssh.target.url() +
                                                  " passed its " + std::to_string(seconds) + " s limit",
                                              category::Timeout));
  } else if (code > 128 && code < 128 + 65) {
    out.run.status = RunStatus::Crash;
    out.run.signal = code - 128;
  } else if (k.process.ok()) {
    out.run.status = RunStatus::Ok;
  } else {
    out.run.status = RunStatus::Error;
  }
  if (out.run.status != RunStatus::Ok && out.run.diagnostics.empty())
    out.run.diagnostics.push_back(remoteError("the program on " + settings_.ssh.target.url() + " " +
                                                  k.process.describeOutcome() + ": " +
                                                  stderrText.substr(0, 2000) + "\ncommand: " + kernelLine,
                                              category::RuntimeCrash));

  // 3. Results and profiles back, each bounded, then read like any run's (hostile).
  for (std::size_t i = 0; i < files.outputs.size(); ++i)
    fetchFile(rf.outputs[i], files.outputs[i], prepared.outputPoison[i].size(), out.run.diagnostics);
  for (std::size_t i = 0; i < files.inputsAfter.size(); ++i)
    fetchFile(rf.inputsAfter[i], files.inputsAfter[i], prepared.inputData[i].size(), out.run.diagnostics);
  if (mode_ != "cpu" && tools.msprof) {
    const std::string basic = fetchText("OpBasicInfo.csv", rc + "/msprof");
    const std::string pipe = fetchText("PipeUtilization.csv", rc + "/msprof");
    if (!basic.empty() || !pipe.empty())
      out.profile = cannProfileFromCsv(mode_, std::string(ranOnName(ranOn())),
                                       settings_.ssh.target.url() + ":" + rc + "/msprof", basic, pipe);
  }
  const auto errors = readCaseResults(files, prepared, out, "remote");
  if (!errors.empty()) out.run.status = RunStatus::Error;
  out.run.diagnostics.insert(out.run.diagnostics.end(), errors.begin(), errors.end());
  return out;
}

std::map<std::string, std::string> RemoteCannBackend::artifacts() const {
  std::map<std::string, std::string> a{
      {"kernel", (workDir_ / "kernel.cpp").string()},
      {"harness", (workDir_ / (mode_ == "cpu" ? "harness_main.cpp" : "harness_acl.cpp")).string()},
      {"cmake_project", (workDir_ / "CMakeLists.txt").string()},
      {"run_mode", mode_},
      {"remote_host", settings_.ssh.target.url()},
      {"remote_workspace", remoteWork_}};
  if (facts_ && facts_->cann) a["cann_root"] = facts_->cann->root;
  return a;
}

}  // namespace kwb::remote
