// SPDX-License-Identifier: MIT
#include "core/doctor/Doctor.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/base/ExecutableSearch.h"
#include "core/base/InstallLayout.h"
#include "core/base/SampleBuildFiles.h"
#include "core/model/Session.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/MemoryCgroup.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxHost.h"

namespace kwb {
namespace {

std::optional<std::string> firstLineOf(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.timeout = std::chrono::milliseconds(5000);
  spec.outputCap = std::size_t{64} * 1024;
  ProcessResult r = ProcessRunner().run(spec);
  if (!r.ok()) return std::nullopt;
  std::string text = r.stdoutText.empty() ? r.stderrText : r.stdoutText;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line;
  return std::nullopt;
}

// nvcc prints its banner first; the version sits on the "Cuda compilation tools" line.
std::optional<std::string> nvccVersion(const std::string& path) {
  ProcessSpec spec;
  spec.argv = {path, "--version"};
  spec.timeout = std::chrono::milliseconds(5000);
  ProcessResult r = ProcessRunner().run(spec);
  std::istringstream in(r.stdoutText);
  std::string line;
  while (std::getline(in, line))
    if (line.find("release") != std::string::npos) return line;
  return std::nullopt;
}

DoctorCheck toolCheck(const std::string& name, const std::string& exe, bool probe, bool required,
                      const std::string& missingDetail, const std::string& okDetail, const EnvLookup& env) {
  DoctorCheck c{name, "missing", missingDetail, std::nullopt, std::nullopt};
  auto path = findExecutable(exe, env("PATH"));
  if (!path) {
    if (!required) c.status = "missing";
    return c;
  }
  c.status = "ok";
  c.detail = okDetail;
  c.path = path->string();
  if (probe) c.version = firstLineOf({path->string(), "--version"});
  return c;
}

}  // namespace

bool DoctorReport::ok() const {
  for (const auto& c : checks)
    if (c.name == "c++ compiler" && c.status != "ok") return false;
  return true;
}

DoctorReport runDoctor(const DoctorOptions& o) {
  DoctorReport r;
  r.checks.push_back(toolCheck("c++ compiler", "g++", o.probeVersions, true,
                               "g++ not found: the emulator needs it to build kernels (apt-get install g++)",
                               "builds kernels for the built-in Ascend C emulator", o.env));
  {
    // The emulator's headers and runtime library, from the build tree or the install prefix.
    const InstallLayout layout = currentInstallLayout();
    std::error_code ec;
    const bool present = std::filesystem::exists(layout.emulatorRuntimeLib, ec) &&
                         std::filesystem::exists(layout.emulatorIncludeDir / "kernel_operator.h", ec) &&
                         std::filesystem::exists(layout.dataRoot / "resources" / "tasks", ec);
    DoctorCheck c{"emulator runtime", present ? "ok" : "missing",
                  present
                      ? layout.describe()
                      : "emulator files missing (" + layout.describe() + "): reinstall, or set KWB_DATA_DIR",
                  layout.emulatorRuntimeLib.string(), std::nullopt};
    r.checks.push_back(c);
    // The samples' own build files (docs/emulator.md, "The samples' own build files").
    const bool asc = !ascPackageDirectory(layout).empty() &&
                     std::filesystem::exists(ascPackageDirectory(layout) / "ASCConfig.cmake", ec);
    r.checks.push_back(DoctorCheck{
        "ASC CMake package", asc ? "ok" : "missing",
        asc ? "find_package(ASC) for .asc samples: cmake -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_PREFIX_PATH=" +
                  installPrefix(layout).string()
            : "not installed (cmake --install provides <prefix>/lib/cmake/ASC; a build tree has none)",
        asc ? std::optional<std::string>(ascPackageDirectory(layout).string()) : std::nullopt, std::nullopt});
    const bool cann = !cannLayoutDirectory(layout).empty() &&
                      std::filesystem::exists(cannLayoutDirectory(layout) / "tools" / "tikicpulib" / "lib" /
                                                  "cmake" / "tikicpulib" / "tikicpulib-config.cmake",
                                              ec);
    r.checks.push_back(DoctorCheck{
        "CANN-layout folder", cann ? "ok" : "missing",
        cann ? "for the kernel-launch samples' run.sh -r cpu: eval \"$(kwb sim env)\" sets ASCEND_HOME_PATH"
             : "not installed (cmake --install provides <prefix>/share/kernel-workbench/cann; a build tree "
               "has none)",
        cann ? std::optional<std::string>(cannLayoutDirectory(layout).string()) : std::nullopt,
        std::nullopt});
  }
  {
    auto nvcc = findExecutable("nvcc", o.env("PATH"));
    if (!nvcc) {
      for (const char* p : {"/usr/local/cuda/bin/nvcc"})
        if (auto f = findExecutable(p)) nvcc = f;
    }
    DoctorCheck c{"nvcc", nvcc ? "ok" : "missing",
                  nvcc ? "CUDA compiler present (compile only; not used for Ascend kernels)"
                       : "CUDA compiler not found (optional)",
                  std::nullopt, std::nullopt};
    if (nvcc) {
      c.path = nvcc->string();
      if (o.probeVersions) c.version = nvccVersion(nvcc->string());
    }
    r.checks.push_back(c);
  }
  {
    // Exactly what candidate runs get: the sandbox module's own (cached) probe of this machine, which
    // runs a trial sandbox with the real options; installed is not enough (user namespaces may be off).
    const SandboxHost& host = sandboxHost();
    DoctorCheck c{"bubblewrap", "ok", Sandbox::isolationDescription(), std::nullopt, std::nullopt};
    if (!Sandbox::bubblewrapAvailable()) c.status = host.bwrapPath.empty() ? "missing" : "warning";
    if (!host.bwrapPath.empty()) c.path = host.bwrapPath;
    if (!host.bwrapVersion.empty()) c.version = host.bwrapVersion;
    r.checks.push_back(c);
  }
  {
    // The aggregate memory cap of candidate runs (docs/sandbox.md, "Aggregate memory"): a trial cgroup.
    std::string problem;
    auto cgroup = MemoryCgroup::create(64u << 20, problem);
    DoctorCheck c{"memory-cgroup", cgroup ? "ok" : "warning",
                  cgroup ? "all processes of a candidate run share one memory cap (" + cgroup->kind() + ")"
                         : "MEMORY NOT CAPPED IN TOTAL: " + problem +
                               "; each process of a run is still limited by RLIMIT_AS",
                  std::nullopt, std::nullopt};
    if (cgroup) c.path = cgroup->path().parent_path().string();
    r.checks.push_back(c);
  }
  r.cann = detectCann(o.env);
  {
    DoctorCheck c{"cann", "missing",
                  "no CANN toolkit found (ASCEND_TOOLKIT_HOME unset, nothing under /usr/local/Ascend): "
                  "kernels run on the built-in emulator; no NPU run is possible",
                  std::nullopt, std::nullopt};
    if (r.cann) {
      c.status = r.cann->bisheng ? "ok" : "warning";
      c.path = r.cann->root.string();
      c.version = r.cann->version;
      c.detail = r.cann->bisheng ? "CANN toolkit found via " + r.cann->foundVia
                                 : "CANN folder found via " + r.cann->foundVia + " but bisheng is missing";
    }
    r.checks.push_back(c);
  }
  for (const char* tool : {"bisheng", "msprof"}) {
    std::optional<std::filesystem::path> p;
    if (r.cann) p = std::string(tool) == "bisheng" ? r.cann->bisheng : r.cann->msprof;
    DoctorCheck c{tool, p ? "ok" : "missing",
                  p ? "from the CANN toolkit" : "not available without a CANN toolkit", std::nullopt,
                  std::nullopt};
    if (p) c.path = p->string();
    r.checks.push_back(c);
  }
  {
    auto npuSmi = findExecutable("npu-smi", o.env("PATH"));
    r.checks.push_back({"npu device", npuSmi ? "warning" : "missing",
                        npuSmi ? "npu-smi found; a device may be present (not probed)"
                               : "no Ascend NPU driver (npu-smi) found: nothing will run on a device",
                        npuSmi ? std::optional<std::string>(npuSmi->string()) : std::nullopt, std::nullopt});
  }
  r.llm = llmEndpointFromEnvironment(o.env);
  {
    DoctorCheck c{"llm endpoint", "missing",
                  "no LLM configured: set KWB_LLM_PROVIDER (openai|anthropic), KWB_LLM_BASE_URL, "
                  "KWB_LLM_MODEL and KWB_LLM_API_KEY_ENV, or use lessons/replay",
                  std::nullopt, std::nullopt};
    if (r.llm.configured()) {
      c.status = (r.llm.apiKeyPresent || r.llm.provider == "replay") ? "ok" : "warning";
      c.detail = r.llm.provider + " at " + redactUrl(r.llm.baseUrl) +
                 (r.llm.model.empty() ? "" : " model " + r.llm.model) + "; key variable " + r.llm.apiKeyEnv +
                 (r.llm.apiKeyPresent ? " is set" : " is NOT set");
    }
    r.checks.push_back(c);
  }
  for (const auto& w : r.llm.warnings)
    r.checks.push_back({"llm setting", "warning", w, std::nullopt, std::nullopt});
  return r;
}

nlohmann::json toJson(const DoctorReport& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    nlohmann::json j{{"name", c.name}, {"status", c.status}, {"detail", c.detail}};
    j["path"] = c.path ? nlohmann::json(*c.path) : nlohmann::json(nullptr);
    j["version"] = c.version ? nlohmann::json(*c.version) : nlohmann::json(nullptr);
    checks.push_back(j);
  }
  nlohmann::json cann = nullptr;
  if (r.cann) {
    cann = {
        {"root", r.cann->root.string()},
        {"layout", r.cann->layout},
        {"found_via", r.cann->foundVia},
        {"version", r.cann->version ? nlohmann::json(*r.cann->version) : nlohmann::json(nullptr)},
        {"bisheng", r.cann->bisheng ? nlohmann::json(r.cann->bisheng->string()) : nlohmann::json(nullptr)},
        {"msprof", r.cann->msprof ? nlohmann::json(r.cann->msprof->string()) : nlohmann::json(nullptr)},
        {"simulator_socs", r.cann->simulatorSocs}};
  }
  return {{"kwb_version", KWB_VERSION},
          {"ok", r.ok()},
          {"checks", checks},
          {"cann", cann},
          {"emulator", {{"available", r.emulatorAvailable}, {"kind", "built-in Ascend C CPU emulator"}}},
          {"llm",
           {{"configured", r.llm.configured()},
            {"provider", r.llm.provider},
            {"base_url", redactUrl(r.llm.baseUrl)},
            {"warnings", r.llm.warnings},
            {"model", r.llm.model},
            {"api_key_env", r.llm.apiKeyEnv},
            {"api_key_present", r.llm.apiKeyPresent}}}};
}

std::string formatText(const DoctorReport& r) {
  std::ostringstream out;
  out << "Kernel Workbench " << KWB_VERSION << " doctor\n";
  for (const auto& c : r.checks) {
    const char* mark = c.status == "ok" ? "[ok]  " : c.status == "warning" ? "[warn]" : "[--]  ";
    out << mark << " " << c.name << ": " << c.detail;
    if (c.path) out << " (" << *c.path << ")";
    if (c.version) out << "\n         " << *c.version;
    out << "\n";
  }
  out << "Runs on: "
      << (r.cann && r.cann->bisheng ? "CANN toolkit or built-in emulator" : "built-in emulator only") << "\n";
  return out.str();
}

}  // namespace kwb
