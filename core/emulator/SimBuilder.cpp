#include "core/emulator/SimBuilder.h"
#include "core/toolchain/InstallLayout.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/diag/CompilerDiagnosticParser.h"
#include "core/process/ProcessRunner.h"

namespace fs = std::filesystem;

namespace kwb {

namespace {

std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Hash of every header the emulator ships: a changed header invalidates the PCH.
std::uint64_t headerHash(const fs::path& includeDir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(includeDir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file()) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  std::uint64_t h = 1469598103934665603ull;
  for (const auto& f : files) h = fnv1a(f.string() + "\n" + readFile(f), h);
  return h;
}

std::string defaultCacheDir() {
  if (const char* d = std::getenv("KWB_SIM_CACHE_DIR"); d && *d) return d;
  {
    const fs::path layoutCache = currentInstallLayout().simCacheDir;
    std::error_code ec;
    fs::create_directories(layoutCache, ec);
    if (!ec && ::access(layoutCache.c_str(), W_OK) == 0) return layoutCache.string();
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kwb/sim";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/kwb/sim";
  return (fs::temp_directory_path() / "kwb-sim-cache").string();
}

int socArch(const std::string& soc) { return soc.rfind("Ascend310P", 0) == 0 ? 2002 : 2201; }

// Runs the compiler; returns the result (output merged for the caller).
ProcessResult runCompiler(const std::vector<std::string>& argv) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.timeout = std::chrono::minutes(10);
  return ProcessRunner().run(spec);
}

bool writeAtomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

}  // namespace

std::vector<Diagnostic> parseGccDiagnostics(const std::string& output, const std::string& emulatorIncludeDir) {
  std::vector<Diagnostic> out = parseCompilerDiagnostics(output);
  std::string_view headers = emulatorIncludeDir;
  while (headers.size() > 1 && headers.back() == '/') headers.remove_suffix(1);
  auto inEmulatorHeaders = [headers](std::string_view file) {
    return !headers.empty() && file.size() > headers.size() && file.substr(0, headers.size()) == headers &&
           file[headers.size()] == '/';
  };
  relocateToUserCode(out, [&](std::string_view file) { return !inEmulatorHeaders(file); });
  for (auto& d : out)
    if (d.category == category::UnsupportedApi || d.category == category::UnsupportedDtype) d.source = "emulator";
  return out;
}

const std::vector<std::string>& simSocNames() {
  static const std::vector<std::string> names = {"Ascend910B1", "Ascend910B2", "Ascend910B3",
                                                 "Ascend910B4", "Ascend310P3", "Ascend310P1"};
  return names;
}

SimBuildResult SimBuilder::build(const SimBuildOptions& o) const {
  const auto t0 = std::chrono::steady_clock::now();
  SimBuildResult r;
  auto fail = [&](SimBuildResult::Status st, std::string msg) {
    r.status = st;
    r.message = std::move(msg);
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    return r;
  };
  if (o.output.empty()) return fail(SimBuildResult::Status::BadInput, "no output file given (-o APP)");
  if (o.sources.empty()) return fail(SimBuildResult::Status::BadInput, "no source files given");
  for (const auto& s : o.sources)
    if (!fs::is_regular_file(s)) return fail(SimBuildResult::Status::BadInput, "source file not found: " + s);
  const auto& socs = simSocNames();
  if (std::find(socs.begin(), socs.end(), o.soc) == socs.end()) {
    std::string list;
    for (const auto& s : socs) list += (list.empty() ? "" : ", ") + s;
    return fail(SimBuildResult::Status::BadInput, "unknown SoC '" + o.soc + "' (known: " + list + ")");
  }
  if (o.standard != "c++17" && o.standard != "c++20" && o.standard != "gnu++17" && o.standard != "gnu++20")
    return fail(SimBuildResult::Status::BadInput, "unsupported language standard '" + o.standard + "' (c++17 or c++20)");

  const InstallLayout layout = currentInstallLayout();
  const std::string includeDir = layout.emulatorIncludeDir.string();
  const std::string runtimeLib = layout.emulatorRuntimeLib.string();
  if (!fs::exists(runtimeLib))
    return fail(SimBuildResult::Status::InternalError, "emulator runtime library missing: " + runtimeLib);
  std::string cxx = o.compiler;
  if (cxx.empty()) {
    const char* env = std::getenv("KWB_SIM_CXX");
    cxx = env && *env ? env : "g++";
  }

  // Flags shared by the PCH and every translation unit (they must match for the PCH to be used).
  std::vector<std::string> flags = {"-std=" + o.standard, "-O2", "-g0", "-fno-strict-aliasing",
                                    // Scalar loops stay scalar loads/stores (not SSE, not memcpy/memset calls):
                                    // each is one raw access the emulator records and costs (RawAccess.cpp).
                                    "-fno-tree-vectorize", "-fno-tree-loop-distribute-patterns", "-pthread",
                                    "-I" + includeDir, "-DASCENDC_CPU_DEBUG=1", "-D__CCE_KT_TEST__=1",
                                    "-DKWB_SIM_SOC_NAME=\"" + o.soc + "\"",
                                    "-DKWB_SIM_ARCH=" + std::to_string(socArch(o.soc)),
                                    std::string("-DKWB_SIM_AUTO_SYNC=") + (o.autoSync ? "1" : "0")};
  for (const auto& d : o.defines) flags.push_back("-D" + d);

  const ProcessResult version = runCompiler({cxx, "--version"});
  if (!version.started || !version.ok())
    return fail(SimBuildResult::Status::InternalError, "cannot run the C++ compiler '" + cxx + "': " + version.describe());

  std::string flagText;
  for (const auto& f : flags) flagText += f + "\n";
  const std::string key = hex(fnv1a(version.stdoutText + "\n" + flagText + hex(headerHash(includeDir))));
  const fs::path cache = fs::path(o.cacheDir.empty() ? defaultCacheDir() : o.cacheDir) / key;
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) return fail(SimBuildResult::Status::InternalError, "cannot create cache folder " + cache.string());

  // 1. Precompiled header.
  const fs::path pchHeader = cache / "kwb_sim_pch.h";
  const fs::path pchFile = cache / "kwb_sim_pch.h.gch";
  r.pch = "off";
  if (o.usePch) {
    if (fs::exists(pchFile)) {
      r.pch = "hit";
    } else {
      writeAtomically(pchHeader, "// kwb sim build: precompiled emulator API\n#include \"tikicpulib.h\"\n");
      const fs::path tmp = cache / ("kwb_sim_pch.h.gch.tmp" + std::to_string(::getpid()));
      std::vector<std::string> argv = {cxx};
      argv.insert(argv.end(), flags.begin(), flags.end());
      argv.insert(argv.end(), {"-x", "c++-header", pchHeader.string(), "-o", tmp.string()});
      const ProcessResult pr = runCompiler(argv);
      if (pr.ok()) {
        fs::rename(tmp, pchFile, ec);
        r.pch = ec ? "failed" : "built";
      } else {
        fs::remove(tmp, ec);
        r.pch = "failed";
      }
    }
  }

  // 2. The SoC parameter file embedded for the cost model inside the program.
  const fs::path socObj = cache / ("soc_" + o.soc + ".o");
  if (!fs::exists(socObj)) {
    const fs::path socJson = layout.dataRoot / "resources" / "soc" / (o.soc + ".json");
    if (fs::exists(socJson)) {
      const fs::path socSrc = cache / ("soc_" + o.soc + ".cpp");
      writeAtomically(socSrc, "extern \"C\" const char kwb_sim_soc_json[] = R\"KWBSOCJSON(" + readFile(socJson) +
                                  ")KWBSOCJSON\";\n");
      const fs::path tmp = cache / ("soc_" + o.soc + ".o.tmp" + std::to_string(::getpid()));
      const ProcessResult sr = runCompiler({cxx, "-c", "-x", "c++", socSrc.string(), "-o", tmp.string()});
      if (sr.ok()) fs::rename(tmp, socObj, ec);
    }
  }

  // 3. Compile and link the program in one go.
  std::vector<std::string> argv = {cxx};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-Winvalid-pch");
  for (const auto& inc : o.includeDirs) argv.push_back("-I" + inc);
  if (r.pch == "hit" || r.pch == "built") argv.insert(argv.end(), {"-include", pchHeader.string()});
  for (const auto& s : o.sources) argv.push_back(fs::absolute(s).lexically_normal().string());
  if (fs::exists(socObj)) argv.push_back(socObj.string());
  argv.insert(argv.end(), {runtimeLib, "-lpthread", "-o", o.output});
  for (const auto& a : argv) r.command += (r.command.empty() ? "" : " ") + shellQuote(a);
  const ProcessResult cr = runCompiler(argv);
  r.compilerOutput = cr.stderrText + cr.stdoutText;
  r.diagnostics = parseGccDiagnostics(r.compilerOutput, includeDir);
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  if (!cr.started) return fail(SimBuildResult::Status::InternalError, "cannot run " + cxx + ": " + cr.startError);
  r.status = cr.ok() ? SimBuildResult::Status::Ok : SimBuildResult::Status::BuildFailed;
  if (!cr.ok() && r.diagnostics.empty()) {
    Diagnostic d;
    d.source = "compiler";
    d.category = std::string(category::CompileError);
    d.message = "the compiler failed: " + cr.describe();
    r.diagnostics.push_back(d);
  }
  return r;
}

}  // namespace kwb
