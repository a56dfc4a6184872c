// SPDX-License-Identifier: MIT
#include "core/toolchain/SimBackend.h"
#include "core/base/TextFile.h"

#include "core/base/InstallLayout.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/base/PrivateCacheDir.h"
#include "core/emulator/SimBuilder.h"
#include "core/model/Hash.h"
#include "core/model/SizeLimits.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/VerifiedCache.h"
#include "core/toolchain/ResultFile.h"
#include "core/toolchain/TilingPhase.h"
#include "core/toolchain/TrustedLaunch.h"
#include "core/verify/ReferenceRunner.h"

#include <algorithm>

namespace kwb {

namespace fs = std::filesystem;

namespace {
void writeText(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
}  // namespace

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

SimBackend::SimBackend(BackendOptions options) : options_(std::move(options)) {}

std::vector<Diagnostic> SimBackend::prepare(const Task& task, const std::string& candidateSource,
                                            const fs::path& workDir,
                                            const std::map<std::string, std::string>& companions) {
  std::vector<Diagnostic> out;
  task_ = &task;
  std::error_code ec;
  workDir_ = fs::absolute(workDir, ec);
  fs::create_directories(workDir_, ec);
  std::string error;
  auto soc = loadSocInfo(options_.soc, error);
  if (!soc) {
    out.push_back(toolchainDiagnostic(Severity::Error, category::InvalidParam, error));
    return out;
  }
  soc_ = *soc;
  kernelFile_ = workDir_ / "kernel.cpp";
  harnessFile_ = workDir_ / "harness_main.cpp";
  writeText(kernelFile_, candidateSource);
  candidateSource_ = candidateSource;
  if (std::string cerr; !writeCompanionFiles(workDir_, companions, cerr)) {
    out.push_back(toolchainDiagnostic(Severity::Error, category::PolicyViolation, cerr));
    return out;
  }
  // The operator-project form: two generated units around the project's files.
  std::map<std::string, std::string> all = companions;
  all["kernel.cpp"] = candidateSource;
  std::vector<Diagnostic> formProblems;
  opForm_ = detectOpProjectForm(all, "kernel.cpp", formProblems);
  if (opForm_ && formProblems.empty())
    opForm_->templateKernel = parseTemplateKernel(all, "kernel.cpp", task.name, formProblems);
  if (!formProblems.empty()) return formProblems;
  const std::string harness = generateCpuHarness(task, opForm_ ? opProjectEntrySymbol(task.name) : "");
  writeText(harnessFile_, harness);
  std::string opUnits;
  opDefines_.clear();
  if (opForm_) {
    opDefines_ = opProjectDefines(*opForm_, task);
    const std::string kernelUnit = opProjectKernelUnit(*opForm_, "kernel.cpp", task.name);
    opUnits = kernelUnit + opProjectHostUnit(*opForm_);
    for (const auto& d : opDefines_) opUnits += "\n-D" + d;
    writeText(workDir_ / kOpKernelUnitName, kernelUnit);
    writeText(workDir_ / kOpHostUnitName, opProjectHostUnit(*opForm_));
  }
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
  harnessSource_ = harness;
  harnessKey_ = hashHex("harness-object-1\n" + harness + "\n--soc--\n" + options_.soc + "\n--tiling--\n" +
                        readTextFileOrEmpty(inc / "kwb_tiling.h") + "\n--include--\n" + inc.string() +
                        "\n--emulator--\n" + emulatorStamp + "\n--cxx--\n" + emulatorCompiler());
  // SimBuilder compiles with $KWB_SIM_CXX (default g++): a program built by one compiler must not be
  // reused by a run that asked for another.
  buildKey_ = hashHex(candidateSource + "\n--companions--\n" + companionFilesKey(companions) +
                      "\n--harness--\n" + harness + "\n--op-units--\n" + opUnits + "\n--soc--\n" +
                      options_.soc + "\n--tiling--\n" + readTextFileOrEmpty(inc / "kwb_tiling.h") +
                      "\n--emulator--\n" + emulatorStamp + "\n--cxx--\n" + emulatorCompiler());
  return out;
}

CompileResult SimBackend::compile() {
  CompileResult r;
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    r.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  // Cached programs are executed later: the folder must be ours alone (core/base/PrivateCacheDir.h),
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

  SimBuildOptions o = harnessBuildOptions();
  o.output = binary_.string();
  o.sources = {kernelFile_.string(), harnessFile_.string()};
  if (opForm_) {
    o.sources = {(workDir_ / kOpKernelUnitName).string(), harnessFile_.string(),
                 (workDir_ / kOpHostUnitName).string()};
    o.defines.insert(o.defines.end(), opDefines_.begin(), opDefines_.end());
  } else if (const auto object = harnessObject(cache, r.diagnostics, false)) {
    // Only the candidate is compiled per edit; the task's harness object is linked in.
    o.sources = {kernelFile_.string()};
    o.objects = {object->string()};
  }
  // The first build of a task compiles the whole program as before and, on the other core, the harness
  // object the next builds will link (jthread: joined whatever happens below).
  std::vector<Diagnostic> harnessDiagnostics;
  std::jthread harnessBuild;
  if (!opForm_ && o.objects.empty())
    harnessBuild = std::jthread([&] { harnessObject(cache, harnessDiagnostics, true); });
  const SimBuildResult b = SimBuilder().build(o);
  if (harnessBuild.joinable()) harnessBuild.join();
  r.diagnostics.insert(r.diagnostics.end(), harnessDiagnostics.begin(), harnessDiagnostics.end());
  r.commandLine = b.command;
  r.log = b.compilerOutput.empty() ? b.message : b.compilerOutput;
  // Diagnostics point at the candidate as the agent knows it.
  for (Diagnostic d : b.diagnostics) {
    if (fs::path(d.file).filename() == "kernel.cpp") d.file = "kernel.cpp";
    r.diagnostics.push_back(std::move(d));
  }
  r.ok = b.ok();
  if (!r.ok) {
    const bool anyError = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.isError(); });
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

SimBuildOptions SimBackend::harnessBuildOptions() const {
  SimBuildOptions o;
  o.soc = options_.soc;
  o.includeDirs = {verify::taskIncludeDir(*task_).string()};
  o.defines = {"KWB_COMPILE_KERNEL=1", "KWB_COMPILE_TILING=1"};
  return o;
}

std::optional<fs::path> SimBackend::harnessObject(const fs::path& cache, std::vector<Diagnostic>& diagnostics,
                                                  bool buildOnMiss) const {
  // Compiled in a folder of its own: the harness's quoted includes must never find a candidate's file,
  // since its object is reused for every candidate of the task.
  const fs::path dir = workDir_ / "harness-object";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return std::nullopt;
  const fs::path source = dir / "harness_main.cpp";
  const fs::path object = dir / "harness_main.o";
  writeText(source, harnessSource_);
  const fs::path entry = cache / ("harness-" + task_->name + "-" + harnessKey_ + ".o");
  std::string digest, warning;
  const CacheLookup lookup = fetchCacheEntry(entry, object, 0644, digest, warning);
  if (lookup == CacheLookup::Hit) return object;
  if (lookup == CacheLookup::Discarded)
    diagnostics.push_back(toolchainDiagnostic(Severity::Warning, category::CacheIntegrity, warning));
  if (!buildOnMiss) return std::nullopt;
  SimBuildOptions o = harnessBuildOptions();
  o.output = object.string();
  o.sources = {source.string()};
  o.compileOnly = true;
  // A harness that does not compile alone is left to the whole build, which reports it.
  if (!SimBuilder().build(o).ok()) return std::nullopt;
  std::string error;
  if (!storeCacheEntry(object, entry, error))
    diagnostics.push_back(toolchainDiagnostic(Severity::Warning, category::CacheIntegrity,
                                              "the harness object was not cached: " + error));
  return object;
}

CaseRunResult SimBackend::run(const verify::PreparedCase& prepared, const CaseFiles& files) {
  CaseRunResult out;
  out.run.backend = name();
  out.run.ranOn = RanOn::Emulator;
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&](RunStatus status) {
    out.run.status = status;
    out.run.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
  };

  PhaseClock clock(out.phases);
  // 1. The tiling, where no tensor data exists.
  TilingPhaseResult tiling = runTilingPhase(*task_, prepared, files, soc_, binary_, options_.caseTimeout);
  clock.lap("tiling");
  if (opForm_) {
    // The candidate wrote a TilingFunc, not kwb_tiling: its failures point at it.
    for (auto& d : tiling.diagnostics) {
      if (d.api != std::optional<std::string>("kwb_tiling")) continue;
      const std::string& funcFile =
          opForm_->opDef.tilingFuncFile.empty() ? opForm_->hostFile : opForm_->opDef.tilingFuncFile;
      d.api = opForm_->opDef.tilingFunc;
      d.file = funcFile;
      d.line = opForm_->opDef.tilingFuncLine;
      d.message = "the TilingFunc " + opForm_->opDef.tilingFunc + " of " + opForm_->opDef.opType + " (" +
                  funcFile + ":" + std::to_string(opForm_->opDef.tilingFuncLine) + ") failed: " + d.message;
    }
  }
  out.tiling = tiling.tiling;
  out.run.diagnostics = tiling.diagnostics;
  if (!tiling.ok) return finish(tiling.timedOut ? RunStatus::Timeout : RunStatus::Error);

  // 2. The kernel, on the validated tiling. The run sees the program, its inputs (read-only) and the
  // pre-created result files; its working folder is a private tmpfs.
  writeText(files.manifest, harnessManifest(*task_, prepared, files, soc_, out.tiling));
  SandboxPolicy policy;
  policy.scratchDir = files.scratch;
  policy.scratchTmpfsBytes = 64ull << 20;
  policy.readOnlyPaths = {binary_, files.inDir};
  policy.writableFiles = files.outputs;
  policy.writableFiles.insert(policy.writableFiles.end(), files.inputsAfter.begin(), files.inputsAfter.end());
  policy.writableFiles.push_back(files.records);
  std::uint64_t tensorBytes = 0;
  for (const auto& b : prepared.inputData) tensorBytes += b.size();
  for (const auto& b : prepared.outputPoison) tensorBytes += b.size();
  policy.wallTimeout = timeLimitForTensors(options_.caseTimeout, static_cast<std::int64_t>(tensorBytes));
  policy.cpuSeconds = static_cast<int>(policy.wallTimeout.count() / 1000) + 5;
  policy.maxProcesses = 256;  // one forked process per block
  // All processes together: the shared GM (tensors, workspace), each block's UB and trace, and slack.
  policy.totalMemoryBytes =
      std::max<std::uint64_t>(4ull << 30, 2 * tensorBytes + out.tiling.workspaceSize + (2ull << 30));
  // The emulator's global memory is a memfd holding every tensor and the workspace, and a memfd is a
  // file to RLIMIT_FSIZE: a 10^8-element case needs more than the default gigabyte.
  policy.maxFileSizeBytes = std::max<std::uint64_t>(policy.maxFileSizeBytes,
                                                    tensorBytes + out.tiling.workspaceSize + (256ull << 20));
  policy.environment["KWB_SIM_RECORDS"] = files.records.string();
  // The program's own report and cost model would only be discarded: the trusted side computes both.
  policy.environment["KWB_SIM_COST_MODEL"] = "off";
  clock.lap("manifest");
  const SandboxResult r = Sandbox(policy).run({binary_.string(), "kernel", files.manifest.string()});
  out.phases.push_back({"sandbox-setup", {}, r.setupMs});
  out.phases.push_back({"emulator", {}, r.processMs});
  clock.skip();
  out.run.stdoutExcerpt = r.stdoutText().substr(0, 4000);
  out.run.stderrExcerpt = r.stderrText().substr(0, 8000);
  if (r.exited) out.run.exitCode = r.exitCode;
  if (r.signaled) out.run.signal = r.signal;
  for (const auto& d : r.diagnostics) out.run.diagnostics.push_back(d);

  // 3. The trusted side decides: records, outputs and provenance, each read as hostile input.
  LaunchExpectation expect;
  expect.kernel = task_->name;
  expect.blockDim = static_cast<std::uint32_t>(out.tiling.blockDim);
  expect.soc = soc_.name;
  expect.socFile = socDirectory(currentInstallLayout()) / (soc_.name + ".json");
  for (std::size_t k = 0; k < prepared.inputs.size(); ++k)
    expect.tensors.push_back({prepared.inputs[k].name, prepared.inputData[k].size()});
  for (std::size_t k = 0; k < prepared.outputs.size(); ++k)
    expect.tensors.push_back({prepared.outputs[k].name, prepared.outputPoison[k].size()});
  {
    std::istringstream lines(candidateSource_);
    for (std::string l; std::getline(lines, l);) expect.candidateLines.push_back(l);
  }
  expect.profileDir = files.dir;
  const ResultFileRead records = readResultFile(files.records, std::nullopt, policy.maxFileSizeBytes);
  TrustedLaunch launch;
  if (records.bytes) {
    launch = analyzeLaunchRecords(
        std::string_view(reinterpret_cast<const char*>(records.bytes->data()), records.bytes->size()),
        expect);
  } else {
    Diagnostic d;
    d.source = "workbench";
    d.category = std::string(category::RuntimeCrash);
    d.message = "the run's records cannot be read back: " + records.error;
    launch.diagnostics.push_back(d);
  }
  for (const auto& d : launch.diagnostics) out.run.diagnostics.push_back(d);
  out.profile = launch.profile;
  clock.lap("records");
  bool resultsOk = false;
  if (r.exited && r.exitCode == 0) {
    const auto errors = readCaseResults(files, prepared, out, "workbench");
    resultsOk = errors.empty();
    out.run.diagnostics.insert(out.run.diagnostics.end(), errors.begin(), errors.end());
  }
  if (resultsOk && launch.complete && out.outputs.size() == prepared.outputs.size()) {
    for (std::size_t k = 0; k < prepared.outputs.size(); ++k) {
      const auto& n = prepared.outputs[k].name;
      for (auto& d : checkProvenance(n, launch.tensorAddress[n], prepared.outputPoison[k], out.outputs[k],
                                     launch.writes, expect.candidateFile))
        out.run.diagnostics.push_back(std::move(d));
    }
    for (std::size_t k = 0; k < prepared.outputs.size(); ++k) {
      const auto& spec = prepared.outputs[k];
      const std::uint64_t es = dtypeSize(spec.dtype);
      verify::BlockSlices slices;
      for (const auto& ranges :
           tensorWritesByBlock(launch.trace, launch.tensorAddress[spec.name], out.outputs[k].size())) {
        auto& mine = slices.emplace_back();
        for (const auto& r : ranges)
          mine.push_back(
              {static_cast<std::int64_t>(r.lo / es), static_cast<std::int64_t>((r.hi + es - 1) / es)});
      }
      out.outputBlockWrites.push_back(std::move(slices));
      out.outputRangeSetLines.push_back(tensorRangeSetLine(launch.trace, launch.tensorAddress[spec.name],
                                                           out.outputs[k].size(), expect.candidateFile));
    }
    for (std::size_t k = 0; k < prepared.inputs.size(); ++k) {
      const auto& n = prepared.inputs[k].name;
      for (auto& d : checkInputsUnwritten(n, launch.tensorAddress[n], prepared.inputData[k].size(),
                                          launch.writes, expect.candidateFile)) {
        verify::InputCheck ic;
        ic.tensor = n;
        ic.changed = 1;
        ic.summary = d.message;
        out.inputsWritten.push_back(std::move(ic));
      }
    }
  }
  clock.lap("results");
  const bool errors = std::any_of(out.run.diagnostics.begin(), out.run.diagnostics.end(),
                                  [](const Diagnostic& d) { return d.isError(); });
  if (r.timedOut ||
      std::any_of(out.run.diagnostics.begin(), out.run.diagnostics.end(),
                  [](const Diagnostic& d) { return d.isError() && d.category == category::Timeout; }))
    return finish(RunStatus::Timeout);
  if (r.signaled) return finish(RunStatus::Crash);
  if (r.exited && r.exitCode == 0 && !errors && r.ok() && resultsOk) return finish(RunStatus::Ok);
  if (!errors) {
    Diagnostic d;
    d.source = "harness";
    d.category = std::string(category::RuntimeCrash);
    d.message = "the program " + r.process.describeOutcome() + ": " + r.stderrText().substr(0, 2000) +
                "\ncommand: " + r.commandLine();
    out.run.diagnostics.push_back(d);
  }
  return finish(RunStatus::Error);
}

std::map<std::string, std::string> SimBackend::artifacts() const {
  return {{"kernel", kernelFile_.string()}, {"harness", harnessFile_.string()}, {"binary", binary_.string()}};
}

}  // namespace kwb
