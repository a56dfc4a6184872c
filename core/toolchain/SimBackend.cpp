#include "core/toolchain/SimBackend.h"

#include "core/toolchain/InstallLayout.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/emulator/SimBuilder.h"
#include "core/model/Hash.h"
#include "core/sandbox/Sandbox.h"
#include "core/toolchain/PrivateCacheDir.h"
#include "core/toolchain/VerifiedCache.h"
#include "core/verify/ReferenceRunner.h"

namespace kwb {

namespace fs = std::filesystem;

namespace {
std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
verify::Bytes readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return verify::Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
}  // namespace

SimBackend::SimBackend(BackendOptions options) : options_(std::move(options)) {}

std::vector<Diagnostic> SimBackend::prepare(const Task& task, const std::string& candidateSource,
                                            const fs::path& workDir) {
  std::vector<Diagnostic> out;
  task_ = &task;
  std::error_code ec;
  workDir_ = fs::absolute(workDir, ec);
  fs::create_directories(workDir_, ec);
  std::string error;
  auto soc = loadSocInfo(options_.soc, error);
  if (!soc) {
    Diagnostic d;
    d.source = "toolchain";
    d.category = std::string(category::InvalidParam);
    d.message = error;
    out.push_back(d);
    return out;
  }
  soc_ = *soc;
  kernelFile_ = workDir_ / "kernel.cpp";
  harnessFile_ = workDir_ / "harness_main.cpp";
  writeText(kernelFile_, candidateSource);
  const std::string harness = generateCpuHarness(task);
  writeText(harnessFile_, harness);
  const fs::path inc = verify::taskIncludeDir(task);
  // The emulator itself is part of the key: a rebuilt runtime library (new checks, fixes) must not be
  // hidden behind binaries linked against the old one.
  std::string emulatorStamp;
  const InstallLayout layout = currentInstallLayout();
  {
    std::error_code sec;
    const fs::path& lib = layout.emulatorRuntimeLib;
    emulatorStamp = std::to_string(fs::file_size(lib, sec)) + ":" +
                    std::to_string(fs::last_write_time(lib, sec).time_since_epoch().count());
  }
  {
    std::error_code sec;
    for (const auto& e : fs::recursive_directory_iterator(layout.emulatorIncludeDir, sec))
      if (e.is_regular_file(sec))
        emulatorStamp += "|" + e.path().string() + ":" + std::to_string(e.file_size(sec)) + ":" +
                         std::to_string(e.last_write_time(sec).time_since_epoch().count());
  }
  // SimBuilder compiles with $KWB_SIM_CXX (default g++): a program built by one compiler must not be
  // reused by a run that asked for another.
  const char* cxx = std::getenv("KWB_SIM_CXX");
  buildKey_ = hashHex(candidateSource + "\n--harness--\n" + harness + "\n--soc--\n" + options_.soc + "\n--tiling--\n" +
                      readText(inc / "kwb_tiling.h") + "\n--emulator--\n" + emulatorStamp + "\n--cxx--\n" +
                      (cxx && *cxx ? cxx : "g++"));
  return out;
}

namespace {
Diagnostic toolchainDiagnostic(Severity severity, std::string_view cat, std::string message) {
  Diagnostic d;
  d.source = "toolchain";
  d.severity = severity;
  d.category = std::string(cat);
  d.message = std::move(message);
  return d;
}
}  // namespace

CompileResult SimBackend::compile() {
  CompileResult r;
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    r.durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  // Cached programs are executed later: the folder must be ours alone (core/toolchain/PrivateCacheDir.h),
  // and each entry must match the SHA-256 kwb recorded when it built it.
  const fs::path cache = options_.cacheDir.empty() ? workDir_ / "build-cache" : options_.cacheDir;
  const PrivateDirResult pd = preparePrivateDir(cache);
  if (!pd.ok) {
    r.ok = false;
    r.diagnostics.push_back(toolchainDiagnostic(Severity::Error, category::SandboxSetup, pd.error));
    return finish();
  }
  for (const auto& w : pd.warnings)
    r.diagnostics.push_back(toolchainDiagnostic(Severity::Warning, category::CacheIntegrity, w));
  const fs::path cached = cache / ("sim-" + task_->name + "-" + buildKey_);
  binary_ = workDir_ / "kernel_app";
  // The copy that will run is the one verified, so the entry cannot change between check and use.
  std::string digest, warning;
  const CacheLookup lookup = fetchCacheEntry(cached, binary_, 0755, digest, warning);
  if (lookup == CacheLookup::Hit) {
    r.ok = true;
    r.cached = true;
    r.commandLine = "(cached build " + cached.string() + ", sha256 " + digest + ")";
    return finish();
  }
  if (lookup == CacheLookup::Discarded)
    r.diagnostics.push_back(toolchainDiagnostic(Severity::Warning, category::CacheIntegrity, warning));

  SimBuildOptions o;
  o.output = binary_.string();
  o.sources = {kernelFile_.string(), harnessFile_.string()};
  o.soc = options_.soc;
  o.includeDirs = {verify::taskIncludeDir(*task_).string()};
  o.defines = {"KWB_COMPILE_KERNEL=1", "KWB_COMPILE_TILING=1"};
  const SimBuildResult b = SimBuilder().build(o);
  r.commandLine = b.command;
  r.log = b.compilerOutput.empty() ? b.message : b.compilerOutput;
  // Diagnostics point at the candidate as the agent knows it.
  for (Diagnostic d : b.diagnostics) {
    if (fs::path(d.file).filename() == "kernel.cpp") d.file = "kernel.cpp";
    r.diagnostics.push_back(std::move(d));
  }
  r.ok = b.ok();
  if (!r.ok) {
    const bool anyError = std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& d) { return d.isError(); });
    if (!anyError) {
      Diagnostic d;
      d.source = "compiler";
      d.category = std::string(category::CompileError);
      d.message = b.message.empty() ? "the emulator build failed; see the log" : b.message;
      r.diagnostics.push_back(d);
    }
    return finish();
  }
  std::string error;
  if (!storeCacheEntry(binary_, cached, error))
    r.diagnostics.push_back(toolchainDiagnostic(Severity::Warning, category::CacheIntegrity,
                                                "the build was not cached: " + error));
  return finish();
}

CaseRunResult SimBackend::run(const verify::PreparedCase& prepared, const CaseFiles& files) {
  CaseRunResult out;
  out.run.backend = name();
  out.run.ranOn = RanOn::Emulator;
  writeText(files.manifest, harnessManifest(*task_, prepared, files, soc_));
  SandboxPolicy policy;
  policy.scratchDir = files.dir;
  policy.readOnlyPaths = {workDir_};
  policy.wallTimeout = options_.caseTimeout;
  policy.cpuSeconds = static_cast<int>(options_.caseTimeout.count() / 1000) + 5;
  policy.maxProcesses = 256;  // one forked process per block
  policy.environment["KWB_SIM_REPORT"] = files.report.string();
  const auto start = std::chrono::steady_clock::now();
  const SandboxResult r = Sandbox(policy).run({binary_.string(), files.manifest.string()});
  out.run.durationMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.run.stdoutExcerpt = r.stdoutText().substr(0, 4000);
  out.run.stderrExcerpt = r.stderrText().substr(0, 8000);
  if (r.exited) out.run.exitCode = r.exitCode;
  if (r.signaled) out.run.signal = r.signal;
  out.run.diagnostics = r.diagnostics;
  out.tiling = readTilingResult(files.tilingResult);

  // The emulator's report: kernel diagnostics (with lines in kernel.cpp) and the profile.
  std::error_code ec;
  bool reportErrors = false;
  if (fs::exists(files.report, ec)) {
    try {
      const auto j = nlohmann::json::parse(readText(files.report));
      for (const auto& dj : j.value("diagnostics", nlohmann::json::array())) {
        Diagnostic d = dj.get<Diagnostic>();
        if (fs::path(d.file).filename() == "kernel.cpp") d.file = "kernel.cpp";
        reportErrors = reportErrors || d.isError();
        out.run.diagnostics.push_back(std::move(d));
      }
      if (j.contains("profile")) out.profile = j["profile"];
    } catch (const std::exception& e) {
      Diagnostic d;
      d.source = "emulator";
      d.severity = Severity::Warning;
      d.category = std::string(category::RuntimeCrash);
      d.message = "unreadable emulator report " + files.report.string() + ": " + e.what();
      out.run.diagnostics.push_back(d);
    }
  }
  if (out.tiling.called && out.tiling.rc != 0) {
    Diagnostic d;
    d.source = "harness";
    d.category = std::string(category::InvalidParam);
    d.api = "kwb_tiling";
    d.message = "kwb_tiling returned " + std::to_string(out.tiling.rc) + " for this case: the tiling rejected its shapes";
    out.run.diagnostics.push_back(d);
  } else if (out.tiling.called && (out.tiling.blockDim <= 0 || out.tiling.blockDim > 65535)) {
    Diagnostic d;
    d.source = "harness";
    d.category = std::string(category::InvalidParam);
    d.api = "kwb_set_block_dim";
    d.message = "kwb_tiling chose blockDim " + std::to_string(out.tiling.blockDim) + "; it must be 1..65535";
    out.run.diagnostics.push_back(d);
  }
  if (r.timedOut) out.run.status = RunStatus::Timeout;
  else if (r.signaled) out.run.status = RunStatus::Crash;
  else if (r.exited && r.exitCode == 0 && !reportErrors && r.ok()) out.run.status = RunStatus::Ok;
  else out.run.status = RunStatus::Error;
  if (out.run.status == RunStatus::Error && out.run.diagnostics.empty()) {
    Diagnostic d;
    d.source = "harness";
    d.category = std::string(category::RuntimeCrash);
    d.message = "the program " + r.process.describeOutcome() + ": " + r.stderrText().substr(0, 2000) +
                "\ncommand: " + r.commandLine();
    out.run.diagnostics.push_back(d);
  }
  for (const auto& f : files.outputs) out.outputs.push_back(readBytes(f));
  for (const auto& f : files.inputsAfter) out.inputsAfter.push_back(readBytes(f));
  return out;
}

std::map<std::string, std::string> SimBackend::artifacts() const {
  return {{"kernel", kernelFile_.string()}, {"harness", harnessFile_.string()}, {"binary", binary_.string()}};
}

}  // namespace kwb
