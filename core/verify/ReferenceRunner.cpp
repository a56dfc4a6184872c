// SPDX-License-Identifier: MIT
#include "core/verify/ReferenceRunner.h"
#include "core/base/Environment.h"
#include "core/base/InstallLayout.h"
#include "core/base/TextFile.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/model/Hash.h"
#include "core/model/SizeLimits.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/CompileSandbox.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/VerifiedCache.h"

namespace kwb::verify {

namespace fs = std::filesystem;

std::string torchPython() {
  if (auto p = environmentValue("KWB_TORCH_PYTHON")) return *p;
  return "/usr/bin/python3";
}

SandboxPolicy torchSandboxPolicy(const fs::path& scratch) {
  SandboxPolicy policy;
  policy.scratchDir = scratch;
  policy.wallTimeout = std::chrono::milliseconds(120000);
  policy.cpuSeconds = 120;
  for (const char* v : {"OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"})
    policy.environment[v] = "1";
  return policy;
}

bool isPythonReference(const Task& task) {
  return task.files.reference && task.files.reference->extension() == ".py";
}

fs::path taskIncludeDir(const Task& task) {
  if (auto d = environmentValue("KWB_TASK_INCLUDE_DIR")) return *d;
  std::error_code ec;
  if (!task.files.dir.empty()) {
    const auto local = task.files.dir.parent_path() / "include";
    if (fs::exists(local / "kwb_reference.h", ec) && fs::exists(local / "kwb_tiling.h", ec))
      return fs::absolute(local, ec);
  }
  return currentInstallLayout().dataRoot / "resources" / "tasks" / "include";
}

ReferenceRunner::ReferenceRunner(fs::path cacheDir) : cacheDir_(std::move(cacheDir)) {}

ReferenceBuild ReferenceRunner::build(const Task& task) const {
  ReferenceBuild b;
  if (!task.files.reference) {
    b.log = "task " + task.name + " has no reference.cpp (or reference.py) in " + task.files.dir.string();
    return b;
  }
  b.python = isPythonReference(task);
  const fs::path inc = taskIncludeDir(task);
  const std::string src = readTextFileOrEmpty(*task.files.reference);
  const std::string key = b.python ? "py-" + hashHex(src)
                                   : hashHex(src + "\n--\n" + readTextFileOrEmpty(inc / "kwb_reference.h"));
  const PrivateDirResult pd = preparePrivateDir(cacheDir_);
  if (!pd.ok) {
    b.log = pd.error;
    return b;
  }
  b.warnings = pd.warnings;
  b.binary = cacheDir_ / ("reference-" + task.name + "-" + key);
  std::error_code ec;
  const fs::path source = fs::absolute(*task.files.reference, ec).lexically_normal();
  std::string warning;
  switch (checkCacheEntry(b.binary, b.sha256, warning)) {
    case CacheLookup::Hit:
      b.ok = true;
      b.cached = true;
      b.command = "(cached reference build " + b.binary.string() + ", sha256 " + b.sha256 + ")";
      return b;
    case CacheLookup::Discarded:
      b.warnings.push_back(warning);
      break;
    case CacheLookup::Miss:
      break;
  }
  std::string error;
  TempWorkDir scratch(makeTempWorkDir("kwb-reference-build-", error));
  if (scratch.path().empty()) {
    b.log = error;
    return b;
  }
  const fs::path built = scratch.path() / "reference";
  if (b.python) {
    // Nothing to compile: the script itself is what gets cached, verified and copied per case.
    std::error_code cec;
    fs::copy_file(source, built, fs::copy_options::overwrite_existing, cec);
    if (cec) {
      b.log = "cannot copy " + source.string() + ": " + cec.message();
      return b;
    }
    b.command = torchPython() + " " + source.string();
    auto digest = storeCacheEntry(built, b.binary, error);
    if (!digest) {
      b.log = "cannot move the reference script into the cache: " + error;
      return b;
    }
    b.sha256 = *digest;
    b.ok = true;
    return b;
  }
  const std::vector<std::string> argv = {
      "g++",           "-std=c++17", "-O1",         "-DKWB_REFERENCE_MAIN", "-I" + inc.string(),
      source.string(), "-o",         built.string()};
  const SandboxResult r =
      runSandboxedCompiler(compilerSandboxPolicy(), scratch.path(), {source.parent_path(), inc}, argv);
  b.command = r.commandLine();
  if (!r.ok() || !fs::exists(built, ec)) {
    std::string why;
    for (const auto& d : compilerSandboxDiagnostics(r, "compiling the reference"))
      if (d.isError()) why += d.message + "\n";
    b.log = "building the reference of " + task.name + " failed (" + r.process.describeOutcome() + "):\n" +
            why + r.stderrText() + r.stdoutText() + "\ncommand: " + b.command;
    return b;
  }
  auto digest = storeCacheEntry(built, b.binary, error);
  if (!digest) {
    b.log = "cannot move the reference binary into the cache: " + error;
    return b;
  }
  b.sha256 = *digest;
  b.ok = true;
  return b;
}

ReferenceOutput ReferenceRunner::run(const ReferenceBuild& build, const PreparedCase& prepared,
                                     const std::vector<fs::path>& inputFiles, const fs::path& caseDir) const {
  ReferenceOutput out;
  if (!build.ok) {
    out.error = build.log;
    return out;
  }
  std::error_code ec;
  const fs::path dir = fs::absolute(caseDir, ec);
  std::ostringstream m;
  m.precision(17);
  m << "case " << (prepared.vcase ? prepared.vcase->name : std::string("case")) << "\n";
  for (const auto& [name, value] : prepared.attrs.items()) {
    std::vector<double> vals;
    std::string type = "float";
    if (value.is_array()) {
      type = "float_list";
      for (const auto& v : value)
        if (v.is_number() || v.is_boolean())
          vals.push_back(v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>());
    } else if (value.is_boolean()) {
      type = "bool";
      vals.push_back(value.get<bool>() ? 1.0 : 0.0);
    } else if (value.is_number()) {
      type = value.is_number_integer() ? "int" : "float";
      vals.push_back(value.get<double>());
    } else if (value.is_string()) {
      // Hex, so that spaces survive the line format (kwb_reference.h reads it back).
      static constexpr char kDigits[] = "0123456789abcdef";
      const auto& text = value.get_ref<const std::string&>();
      std::string hex = text.empty() ? "-" : "";
      for (const char c : text) {
        hex += kDigits[static_cast<unsigned char>(c) >> 4U];
        hex += kDigits[static_cast<unsigned char>(c) & 15U];
      }
      m << "attr " << name << " string " << text.size() << " " << hex << "\n";
      continue;
    } else {
      continue;
    }
    m << "attr " << name << " " << type << " " << vals.size();
    for (double v : vals) m << " " << v;
    m << "\n";
  }
  auto shape = [&](const TensorSpec& s) {
    std::string t = std::to_string(s.shape.size());
    for (auto d : s.shape) t += " " + std::to_string(d);
    return t;
  };
  for (std::size_t k = 0; k < prepared.inputs.size(); ++k)
    m << "input " << prepared.inputs[k].name << " " << dtypeName(prepared.inputs[k].dtype) << " "
      << shape(prepared.inputs[k]) << " " << fs::absolute(inputFiles[k], ec).string() << "\n";
  std::vector<fs::path> outFiles;
  for (const auto& o : prepared.outputs) {
    outFiles.push_back(dir / ("golden_" + o.name + ".f64"));
    m << "output " << o.name << " " << dtypeName(o.dtype) << " " << shape(o) << " "
      << outFiles.back().string() << "\n";
  }
  const fs::path manifest = dir / "reference.manifest";
  {
    std::ofstream f(manifest);
    f << m.str();
  }
  // The cache is private to this user (the sandbox user may not even reach it): the case runs a copy
  // inside its own scratch folder, verified against the digest build() checked.
  const fs::path program = dir / "reference_program";
  std::string error;
  const auto digest = copyAndHash(build.binary, program, 0755, error);
  if (!digest || build.sha256.empty() || *digest != build.sha256) {
    out.error = digest ? "the cached reference " + build.binary.string() +
                             " changed since it was verified (sha256 " + *digest + ", expected " +
                             (build.sha256.empty() ? "none recorded" : build.sha256) + ")"
                       : "cannot copy the reference program: " + error;
    std::error_code rec;
    fs::remove(program, rec);
    return out;
  }
  SandboxPolicy policy = build.python ? torchSandboxPolicy(dir) : SandboxPolicy{};
  policy.scratchDir = dir;
  if (!build.python) policy.wallTimeout = std::chrono::milliseconds(60000);
  std::int64_t tensorBytes = 0, goldenBytes = 0;
  for (const auto& t : prepared.inputs) tensorBytes += t.bytes();
  for (const auto& t : prepared.outputs) {
    tensorBytes += t.bytes();
    goldenBytes += t.elements() * std::int64_t{8};
  }
  policy.wallTimeout = timeLimitForTensors(policy.wallTimeout, tensorBytes);
  policy.cpuSeconds = static_cast<int>(
      timeLimitForTensors(std::chrono::seconds(policy.cpuSeconds), tensorBytes).count() / 1000);
  // The golden files hold doubles: 8 bytes per output element.
  policy.maxFileSizeBytes = std::max<std::uint64_t>(policy.maxFileSizeBytes,
                                                    static_cast<std::uint64_t>(goldenBytes) + (64ull << 20));
  const auto r = Sandbox(policy).run(
      build.python ? std::vector<std::string>{torchPython(), "-I", "-B", program.string(), manifest.string()}
                   : std::vector<std::string>{program.string(), manifest.string()});
  if (!r.ok()) {
    out.error = "the reference program failed (" + r.process.describeOutcome() + "): " + r.stderrText() +
                "\ncommand: " + r.commandLine();
    return out;
  }
  for (std::size_t k = 0; k < outFiles.size(); ++k) {
    std::ifstream f(outFiles[k], std::ios::binary);
    std::vector<double> v(static_cast<std::size_t>(prepared.outputs[k].elements()));
    if (!f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)))) {
      out.error = "the reference did not write " + outFiles[k].string();
      return out;
    }
    out.outputs.push_back(std::move(v));
  }
  out.ok = true;
  return out;
}

}  // namespace kwb::verify
