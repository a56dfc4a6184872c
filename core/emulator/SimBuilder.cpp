// SPDX-License-Identifier: MIT
#include "core/emulator/SimBuilder.h"

#include "core/base/InstallLayout.h"
#include "core/base/TextFile.h"
#include "core/emulator/EmulatorCompilerOutput.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/base/PrivateCacheDir.h"
#include "core/base/TempWorkDir.h"
#include "core/diag/CompilerDiagnosticParser.h"
#include "core/emulator/ChevronRewrite.h"
#include "core/process/ProcessRunner.h"
#include "core/sandbox/VerifiedCache.h"

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

// Hash of every header the emulator ships: a changed header invalidates the PCH.
std::uint64_t headerHash(const fs::path& includeDir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(includeDir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file()) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  std::uint64_t h = 1469598103934665603ull;
  for (const auto& f : files) h = fnv1a(f.string() + "\n" + readTextFileOrEmpty(f), h);
  return h;
}

std::string defaultCacheDir() {
  return simCacheDirectory(currentInstallLayout()).string();
}

int socArch(const std::string& soc) {
  return soc.rfind("Ascend310P", 0) == 0 ? 2002 : 2201;
}

// `g++ --version`: no untrusted input, so it runs directly (it only keys the cache).
ProcessResult compilerVersion(const std::string& cxx) {
  ProcessSpec spec;
  spec.argv = {cxx, "--version"};
  spec.timeout = std::chrono::seconds(30);
  return ProcessRunner().run(spec);
}

Diagnostic cacheWarning(const std::string& message) {
  Diagnostic d;
  d.source = "toolchain";
  d.severity = Severity::Warning;
  d.category = std::string(category::CacheIntegrity);
  d.message = message;
  return d;
}

bool writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// Compiler text about the emulator's own headers, in the words of the API the candidate included: a
// path under the emulator's include directory becomes kernel_operator.h, the runtime's namespace and the
// hidden source-location parameter every API call carries are dropped (issue 15 item 4: no
// emulator-internal names or paths in a message).
std::string publicApiText(std::string text, std::string_view headers) {
  if (!headers.empty()) {
    for (std::size_t pos = text.find(headers); pos != std::string::npos; pos = text.find(headers, pos)) {
      std::size_t end = pos + headers.size();
      while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end])) == 0 &&
             text[end] != '\'' && text[end] != '"' && text[end] != ')' && text[end] != ',')
        ++end;
      const bool colon = end > pos && text[end - 1] == ':';
      const std::string api = colon ? "kernel_operator.h:" : "kernel_operator.h";
      text.replace(pos, end - pos, api);
      pos += api.size();
    }
  }
  static const std::regex hiddenLoc(
      R"(,\s*(const\s+)?(::)?kwb_sim::SrcLoc\s*&?(\s*loc_)?(\s*=\s*[^,)]*\))?)");
  text = std::regex_replace(text, hiddenLoc, "");
  static const std::regex ns(R"((::)?kwb_sim::|kwb-sim: )");
  return std::regex_replace(text, ns, "");
}

}  // namespace

std::vector<Diagnostic> parseGccDiagnostics(const std::string& output,
                                            const std::string& emulatorIncludeDir) {
  std::vector<Diagnostic> out = parseCompilerDiagnostics(output);
  std::string_view headers = emulatorIncludeDir;
  while (headers.size() > 1 && headers.back() == '/') headers.remove_suffix(1);
  auto inEmulatorHeaders = [headers](std::string_view file) {
    return !headers.empty() && file.size() > headers.size() && file.substr(0, headers.size()) == headers &&
           file[headers.size()] == '/';
  };
  relocateToUserCode(out, [&](std::string_view file) { return !inEmulatorHeaders(file); });
  for (auto& d : out) {
    if (d.category == category::UnsupportedApi || d.category == category::UnsupportedDtype)
      d.source = "emulator";
    d.message = publicApiText(d.message, headers);
    // Notes about the emulator's own macros and helper variables say nothing the candidate can act on.
    std::vector<std::string> notes;
    for (auto& n : d.notes)
      if (n.find("KWB_SIM_") == std::string::npos && n.find("kwbOk_") == std::string::npos)
        notes.push_back(publicApiText(n, headers));
    d.notes = std::move(notes);
    if (inEmulatorHeaders(d.file)) d.file = "kernel_operator.h";
  }
  return out;
}

std::vector<std::string> simCompileFlags(const std::string& standard, const std::string& soc, bool autoSync,
                                         const std::string& includeDir) {
  return {"-std=" + standard, "-O2", "-g0", "-fno-strict-aliasing",
          // Scalar loops stay scalar loads/stores (not SSE, not memcpy/memset calls):
          // each is one raw access the emulator records and costs (RawAccess.cpp).
          "-fno-tree-vectorize", "-fno-tree-loop-distribute-patterns", "-pthread", "-I" + includeDir,
          "-DASCENDC_CPU_DEBUG=1", "-D__CCE_KT_TEST__=1", "-DKWB_SIM_SOC_NAME=\"" + soc + "\"",
          "-DKWB_SIM_ARCH=" + std::to_string(socArch(soc)),
          std::string("-DKWB_SIM_AUTO_SYNC=") + (autoSync ? "1" : "0")};
}

std::string simSocObjectSource(const std::string& socJsonText) {
  return "extern \"C\" const char kwb_sim_soc_json[] = R\"KWBSOCJSON(" + socJsonText + ")KWBSOCJSON\";\n";
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
  for (const auto& obj : o.objects)
    if (!fs::is_regular_file(obj))
      return fail(SimBuildResult::Status::BadInput, "object file not found: " + obj);
  if (o.compileOnly && (o.sources.size() != 1 || !o.objects.empty()))
    return fail(SimBuildResult::Status::BadInput, "compiling to an object takes one source and no objects");
  const auto& socs = simSocNames();
  if (std::find(socs.begin(), socs.end(), o.soc) == socs.end()) {
    std::string list;
    for (const auto& s : socs) list += (list.empty() ? "" : ", ") + s;
    return fail(SimBuildResult::Status::BadInput, "unknown SoC '" + o.soc + "' (known: " + list + ")");
  }
  if (o.standard != "c++17" && o.standard != "c++20" && o.standard != "gnu++17" && o.standard != "gnu++20")
    return fail(SimBuildResult::Status::BadInput,
                "unsupported language standard '" + o.standard + "' (c++17 or c++20)");

  const InstallLayout layout = currentInstallLayout();
  const std::string includeDir = layout.emulatorIncludeDir.string();
  const std::string runtimeLib = layout.emulatorRuntimeLib.string();
  if (!fs::exists(runtimeLib))
    return fail(SimBuildResult::Status::InternalError, "emulator runtime library missing: " + runtimeLib);
  const std::string cxx = o.compiler.empty() ? emulatorCompiler() : o.compiler;

  // Flags shared by the PCH and every translation unit (they must match for the PCH to be used).
  std::vector<std::string> flags = simCompileFlags(o.standard, o.soc, o.autoSync, includeDir);
  for (const auto& d : o.defines) flags.push_back("-D" + d);

  const ProcessResult version = compilerVersion(cxx);
  if (!version.started || !version.ok())
    return fail(SimBuildResult::Status::InternalError,
                "cannot run the C++ compiler '" + cxx + "': " + version.describe());

  std::string flagText;
  for (const auto& f : flags) flagText += f + "\n";
  const std::string key = hex(fnv1a(version.stdoutText + "\n" + flagText + hex(headerHash(includeDir))));
  // The cache holds a PCH that is force-included into every build: it must be ours alone.
  const fs::path cacheRoot = o.cacheDir.empty() ? fs::path(defaultCacheDir()) : fs::path(o.cacheDir);
  std::error_code ec;
  fs::create_directories(cacheRoot.parent_path(), ec);
  for (const fs::path& dir : {cacheRoot, cacheRoot / key}) {
    const PrivateDirResult pd = preparePrivateDir(dir);
    if (!pd.ok) return fail(SimBuildResult::Status::InternalError, pd.error);
    for (const auto& w : pd.warnings) r.diagnostics.push_back(cacheWarning(w));
  }
  const fs::path cache = cacheRoot / key;

  // One private scratch folder for every compiler run of this build (the PCH, the SoC object, the
  // program); it never holds anything but copies, and goes away at the end whatever happens.
  std::string error;
  TempWorkDir scratch(makeTempWorkDir("kwb-sim-build-", error));
  if (scratch.path().empty()) return fail(SimBuildResult::Status::InternalError, error);
  const fs::path& work = scratch.path();
  SandboxPolicy policy = o.sandbox;
  // The host headers an operator or Matmul sample includes (tiling/platform/platform_ascendc.h ->
  // kwb_op/tiling_context.h) need the tiling contract's kwb_tiling.h: its folder comes last, unless a
  // folder the caller gives (a task's own include folder) already holds one.
  std::vector<std::string> includeDirs = o.includeDirs;
  const bool haveContract = std::any_of(includeDirs.begin(), includeDirs.end(), [&](const std::string& d) {
    return fs::exists(fs::path(d) / "kwb_tiling.h", ec);
  });
  const fs::path contractDir = layout.dataRoot / "resources" / "tasks" / "include";
  if (!haveContract && fs::exists(contractDir / "kwb_tiling.h", ec))
    includeDirs.push_back(contractDir.string());
  std::vector<fs::path> readOnly = {includeDir, runtimeLib};
  for (const auto& inc : includeDirs) readOnly.push_back(fs::absolute(inc, ec));
  // The sources' own folders, so that `#include "local.h"` next to a source works as with plain g++.
  for (const auto& s : o.sources) readOnly.push_back(fs::absolute(s, ec).lexically_normal().parent_path());
  for (const auto& obj : o.objects) readOnly.push_back(fs::absolute(obj, ec).lexically_normal());
  auto compile = [&](const std::vector<std::string>& argv) {
    SandboxResult sr = runSandboxedCompiler(policy, work, readOnly, argv);
    if (r.isolation.empty() || sr.isolation != "bubblewrap") r.isolation = sr.isolation;
    return sr;
  };

  // 1. Precompiled header: copied out of the cache (and verified) into the scratch folder, or built there.
  const fs::path pchHeader = work / "kwb_sim_pch.h";
  const fs::path pchFile = work / "kwb_sim_pch.h.gch";
  const fs::path pchEntry = cache / "kwb_sim_pch.h.gch";
  r.pch = "off";
  if (o.usePch) {
    writeText(pchHeader, "// kwb sim build: precompiled emulator API\n#include \"tikicpulib.h\"\n");
    std::string digest, warning;
    const CacheLookup lookup = fetchCacheEntry(pchEntry, pchFile, 0644, digest, warning);
    if (lookup == CacheLookup::Discarded) r.diagnostics.push_back(cacheWarning(warning));
    if (lookup == CacheLookup::Hit) {
      r.pch = "hit";
    } else {
      std::vector<std::string> argv = {cxx};
      argv.insert(argv.end(), flags.begin(), flags.end());
      argv.insert(argv.end(), {"-x", "c++-header", pchHeader.string(), "-o", pchFile.string()});
      const SandboxResult pr = compile(argv);
      r.pch = pr.ok() && fs::exists(pchFile, ec) && storeCacheEntry(pchFile, pchEntry, error) ? "built"
                                                                                              : "failed";
      if (!pr.ok()) {
        std::error_code rec;
        fs::remove(pchFile, rec);
      }
    }
  }

  // 2. The SoC parameter file embedded for the cost model inside the program. The cached object is keyed
  // by the file's content, so an edited (calibrated) SoC file is never served from a stale entry.
  const fs::path socJson = socDirectory(layout) / (o.soc + ".json");
  const std::string socText = fs::exists(socJson) ? readTextFileOrEmpty(socJson) : std::string();
  const fs::path socObj = work / ("soc_" + o.soc + ".o");
  const fs::path socEntry = cache / ("soc_" + o.soc + "_" + hex(fnv1a(socText)) + ".o");
  bool haveSoc = false;
  if (!socText.empty() && !o.compileOnly) {
    std::string digest, warning;
    const CacheLookup lookup = fetchCacheEntry(socEntry, socObj, 0644, digest, warning);
    if (lookup == CacheLookup::Discarded) r.diagnostics.push_back(cacheWarning(warning));
    haveSoc = lookup == CacheLookup::Hit;
  }
  if (!haveSoc && !socText.empty() && !o.compileOnly) {
    const fs::path socSrc = work / ("soc_" + o.soc + ".cpp");
    writeText(socSrc, simSocObjectSource(socText));
    const SandboxResult sr = compile({cxx, "-c", "-x", "c++", socSrc.string(), "-o", socObj.string()});
    haveSoc = sr.ok() && fs::exists(socObj, ec);
    if (haveSoc) storeCacheEntry(socObj, socEntry, error);
  }

  // 3. Sources with <<<>>> launches (every .asc) are rewritten into the scratch folder, keeping their
  // line numbers (#line) and their own folder for quoted includes (-iquote).
  std::vector<std::string> sourceArgs;
  std::vector<Diagnostic> rewriteErrors;
  int rewritten = 0;
  for (const auto& src : o.sources) {
    const std::string abs = fs::absolute(src).lexically_normal().string();
    const std::string text = readTextFileOrEmpty(abs);
    if (!needsChevronRewrite(abs, text)) {
      sourceArgs.push_back(abs);
      continue;
    }
    const ChevronRewrite rw = rewriteChevronLaunches(text, abs);
    for (const auto& e : rw.errors) {
      Diagnostic d;
      d.source = "compiler";
      d.category = std::string(category::CompileError);
      d.file = abs;
      d.line = e.line;
      d.message = e.message;
      rewriteErrors.push_back(d);
    }
    const fs::path copy =
        work / ("kwb_src_" + std::to_string(rewritten++) + "_" + fs::path(abs).stem().string() + ".cpp");
    if (!writeText(copy, rw.text))
      return fail(SimBuildResult::Status::InternalError, "cannot write " + copy.string());
    sourceArgs.insert(sourceArgs.end(), {"-iquote", fs::path(abs).parent_path().string(), "-x", "c++",
                                         copy.string(), "-x", "none"});
  }
  if (!rewriteErrors.empty()) {
    r.diagnostics.insert(r.diagnostics.end(), rewriteErrors.begin(), rewriteErrors.end());
    for (const auto& d : rewriteErrors)
      r.compilerOutput += d.file + ":" + std::to_string(d.line) + ": error: " + d.message + "\n";
    r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    r.status = SimBuildResult::Status::BuildFailed;
    return r;
  }

  // 4. Compile and link the program in one go (or compile the one object), inside the scratch folder;
  // kwb copies it out.
  const fs::path built = work / (o.compileOnly ? "kwb_sim_object.o" : "kwb_sim_app");
  std::vector<std::string> argv = {cxx};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("-Winvalid-pch");
  for (const auto& inc : includeDirs) argv.push_back("-I" + inc);
  if (r.pch == "hit" || r.pch == "built") argv.insert(argv.end(), {"-include", pchHeader.string()});
  if (o.compileOnly) argv.push_back("-c");
  argv.insert(argv.end(), sourceArgs.begin(), sourceArgs.end());
  for (const auto& obj : o.objects) argv.push_back(fs::absolute(obj, ec).lexically_normal().string());
  if (haveSoc) argv.push_back(socObj.string());
  if (!o.compileOnly) argv.insert(argv.end(), {runtimeLib, "-lpthread"});
  argv.insert(argv.end(), {"-o", built.string()});
  for (const auto& a : argv) r.command += (r.command.empty() ? "" : " ") + shellQuote(a);
  const SandboxResult cr = compile(argv);
  r.compilerOutput = cr.stderrText() + cr.stdoutText();
  r.userOutput = cleanEmulatorCompilerOutput(r.compilerOutput, includeDir);
  std::vector<Diagnostic> limits =
      compilerSandboxDiagnostics(cr, "compiling " + fs::path(o.output).filename().string());
  std::vector<Diagnostic> parsed = parseGccDiagnostics(r.compilerOutput, includeDir);
  r.diagnostics.insert(r.diagnostics.end(), limits.begin(), limits.end());
  r.diagnostics.insert(r.diagnostics.end(), parsed.begin(), parsed.end());
  if (!cr.process.started) {
    r.diagnostics.insert(r.diagnostics.end(), cr.diagnostics.begin(), cr.diagnostics.end());
    return fail(SimBuildResult::Status::InternalError,
                "cannot run " + cxx + " in the sandbox: " +
                    (cr.process.startError.empty() ? cr.commandLine() : cr.process.startError));
  }
  const bool ok = cr.ok() && fs::exists(built, ec);
  if (ok) {
    auto digest = copyAndHash(built, o.output, o.compileOnly ? 0644 : 0755, error);
    if (!digest)
      return fail(SimBuildResult::Status::InternalError, "cannot write " + o.output + ": " + error);
    r.outputSha256 = *digest;
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  r.status = ok ? SimBuildResult::Status::Ok : SimBuildResult::Status::BuildFailed;
  const bool anyError = std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                    [](const Diagnostic& d) { return d.isError(); });
  if (!ok && !anyError) {
    Diagnostic d;
    d.source = "compiler";
    d.category = std::string(category::CompileError);
    d.message = "the compiler failed: " + cr.process.describeOutcome() + "; command: " + cr.commandLine();
    r.diagnostics.push_back(d);
  }
  return r;
}

}  // namespace kwb
