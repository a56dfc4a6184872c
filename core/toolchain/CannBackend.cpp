// SPDX-License-Identifier: MIT
#include "core/toolchain/CannBackend.h"
#include "core/base/TextFile.h"
#include "core/toolchain/OpProjectForm.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "core/diag/CompilerDiagnosticParser.h"
#include "core/diag/MsprofParser.h"
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
  {
    std::map<std::string, std::string> all = companions;
    all["kernel.cpp"] = candidateSource;
    std::vector<Diagnostic> problems;
    if (detectOpProjectForm(all, "kernel.cpp", problems))
      return {toolchainError(
          "a candidate in the operator-project form (a TilingFunc and OpDef) is evaluated on ascend-sim; on "
          "CANN, export it as a msopgen project and build it with its build.sh "
          "(docs/candidate-contract.md)")};
  }
  if (mode_ != "npu" && mode_ != "sim" && mode_ != "cpu")
    return {toolchainError("unknown CANN run mode \"" + mode_ + "\"; expected npu, sim or cpu")};
  if (npuArchFor(options_.soc).empty())
    return {toolchainError("SoC " + options_.soc +
                           " has no bisheng --npu-arch here (supported: Ascend910B*, "
                           "Ascend910_93*, Ascend310P*, Ascend310B*)")};
  if (mode_ != "cpu" && !cann_->bisheng)
    return {toolchainError("the CANN toolkit at " + cann_->root.string() +
                           " has no bisheng (compiler/ccec_compiler/bin)")};
  if (mode_ == "cpu" && !cann_->tikicpulib)
    return {toolchainError("the CANN toolkit at " + cann_->root.string() +
                           " has no tools/tikicpulib for CPU mode")};
  std::string error;
  auto soc = loadSocInfo(options_.soc, error);
  if (!soc) return {toolchainError(error)};
  soc_ = *soc;
  std::error_code ec;
  workDir_ = fs::absolute(workDir, ec);
  fs::create_directories(workDir_ / "include", ec);
  kernelFile_ = workDir_ / "kernel.cpp";
  writeText(kernelFile_, candidateSource);
  if (std::string cerr; !writeCompanionFiles(workDir_, companions, cerr)) return {toolchainError(cerr)};
  const fs::path inc = verify::taskIncludeDir(task);
  fs::copy_file(inc / "kwb_tiling.h", workDir_ / "include" / "kwb_tiling.h",
                fs::copy_options::overwrite_existing, ec);
  writeText(workDir_ / "harness_main.cpp", generateCpuHarness(task));
  writeText(workDir_ / "harness_acl.cpp", generateAclHarness(task));
  writeText(workDir_ / "CMakeLists.txt", generateCannCMake(task, options_.soc));
  harnessFile_ = workDir_ / (mode_ == "cpu" ? "harness_main.cpp" : "harness_acl.cpp");
  binary_ = workDir_ / "kernel_app";
  return {};
}

CompileResult CannBackend::compile() {
  CompileResult r;
  const auto start = std::chrono::steady_clock::now();
  const fs::path root = cann_->root;
  ProcessSpec spec;
  spec.workingDirectory = workDir_.string();
  spec.timeout = std::chrono::milliseconds(600000);
  if (mode_ == "cpu") {
    const fs::path lib = *cann_->tikicpulib;
    spec.argv = {"g++",
                 "-std=c++17",
                 "-g",
                 "-O0",
                 "-DASCENDC_CPU_DEBUG",
                 "-D__CCE_KT_TEST__",
                 "-I" + (workDir_ / "include").string(),
                 "-I" + (root / "include").string(),
                 "-I" + (root / "tools" / "tikicpulib" / "include").string(),
                 "kernel.cpp",
                 "harness_main.cpp",
                 "-L" + lib.string(),
                 "-L" + (lib / options_.soc).string(),
                 "-Wl,-rpath," + lib.string(),
                 "-Wl,-rpath," + (lib / options_.soc).string(),
                 "-ltikicpulib_npuchk",
                 "-ltikicpulib_stubreg",
                 "-o",
                 binary_.string()};
  } else {
    spec.argv = {cann_->bisheng->string(),
                 "-xcce",
                 "--npu-arch=" + npuArchFor(options_.soc),
                 "-O2",
                 "-std=c++17",
                 "--cce-auto-sync",
                 "-I" + (workDir_ / "include").string(),
                 "-I" + workDir_.string(),
                 "-I" + (root / "include").string(),
                 "-I" + (root / "compiler" / "tikcpp" / "tikcfw").string(),
                 "-I" + (root / "compiler" / "tikcpp" / "tikcfw" / "impl").string(),
                 "-I" + (root / "compiler" / "tikcpp" / "tikcfw" / "interface").string(),
                 "harness_acl.cpp",
                 "-L" + (root / "lib64").string()};
    if (mode_ == "sim")
      spec.argv.insert(spec.argv.end(),
                       {"-L" + (root / "tools" / "simulator" / options_.soc / "lib").string(), "-lascendcl",
                        "-lruntime_camodel", "-lnpu_drv"});
    else
      spec.argv.insert(spec.argv.end(), {"-lascendcl", "-lruntime"});
    spec.argv.insert(spec.argv.end(), {"-o", binary_.string()});
  }
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
  std::string ld = (root / "lib64").string();
  if (mode_ == "sim") ld = (root / "tools" / "simulator" / options_.soc / "lib").string() + ":" + ld;
  if (mode_ == "cpu" && cann_->tikicpulib)
    ld = cann_->tikicpulib->string() + ":" + (*cann_->tikicpulib / options_.soc).string() + ":" + ld;
  policy.environment["LD_LIBRARY_PATH"] = ld;
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
  std::vector<std::string> argv;
  const fs::path profDir = files.scratch / "msprof";
  if (cann_->msprof && mode_ == "npu") {
    argv = {cann_->msprof->string(), "op",     "--output=" + profDir.string(),
            binary_.string(),        "kernel", files.manifest.string()};
  } else if (cann_->msprof && mode_ == "sim") {
    argv = {cann_->msprof->string(),
            "op",
            "simulator",
            "--soc-version=" + options_.soc,
            "--output=" + profDir.string(),
            binary_.string(),
            "kernel",
            files.manifest.string()};
  } else {
    argv = {binary_.string(), "kernel", files.manifest.string()};
  }
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
    out.profile = {{"tool", mode_ == "sim" ? "msprof op simulator" : "msprof op"},
                   {"ran_on", ranOnName(ranOn())},
                   {"output_dir", profDir.string()}};
    // OPPROF_*/OpBasicInfo.csv and PipeUtilization.csv (docs/ascend-notes.md §4.1), parsed with MsprofParser.
    for (const auto& e : fs::recursive_directory_iterator(profDir, ec)) {
      const std::string fname = e.path().filename().string();
      try {
        if (fname == "OpBasicInfo.csv") {
          const auto rows = parseOpBasicInfo(readTextFileOrEmpty(e.path()), e.path().string());
          if (!rows.empty()) {
            out.profile["task_duration_us"] = rows.front().taskDurationUs;
            out.profile["block_dim"] = rows.front().blockDim;
            out.profile["op_name"] = rows.front().opName;
          }
        } else if (fname == "PipeUtilization.csv") {
          const auto rows = parsePipeUtilization(readTextFileOrEmpty(e.path()), e.path().string());
          if (auto b = busiestPipe(rows))
            out.profile["busiest_pipe"] = {
                {"core", b->core}, {"pipe", b->pipe}, {"mean_ratio", b->meanRatio}};
        }
      } catch (const std::exception& ex) {
        out.profile["parse_error"] = ex.what();
      }
    }
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
