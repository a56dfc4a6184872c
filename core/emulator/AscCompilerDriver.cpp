// SPDX-License-Identifier: MIT
#include "core/emulator/AscCompilerDriver.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/base/InstallLayout.h"
#include "core/base/TextFile.h"
#include "core/emulator/ChevronRewrite.h"
#include "core/emulator/EmulatorCompilerOutput.h"
#include "core/emulator/SimBuilder.h"
#include "core/process/ProcessRunner.h"

namespace fs = std::filesystem;

namespace kwb {

namespace {

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isSource(const std::string& a) {
  for (const char* ext : {".asc", ".cpp", ".cc", ".cxx", ".c", ".C"})
    if (endsWith(a, ext)) return true;
  return false;
}

// The NPU architectures of `--npu-arch` the emulator models, as the SoC whose parameters it uses.
std::string socOfArch(const std::string& arch, std::vector<std::string>& errors) {
  if (arch == "dav-2201" || arch == "dav-c220" || arch == "dav-c220-vec" || arch == "dav-c220-cube")
    return "Ascend910B1";
  if (arch == "dav-2002" || arch == "dav-m200") return "Ascend310P1";
  errors.push_back("--npu-arch=" + arch +
                   ": the kwb emulator models dav-2201 (Ascend910B) and dav-2002 (Ascend310P) only");
  return "Ascend910B1";
}

// Flags that take their value as the next argument and are handed to g++ as they are.
bool takesValue(const std::string& a) {
  for (const char* f : {"-I", "-D", "-U", "-MT", "-MF", "-MQ", "-include", "-isystem", "-iquote", "-L", "-l",
                        "-Xlinker", "-idirafter"})
    if (a == f) return true;
  return false;
}

bool writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// `emulatorIncludeDir` set: a compile against the emulator's headers, whose diagnostics are printed as
// cleanEmulatorCompilerOutput rewrites them (the user's line, no emulator internals) once it is done.
int runCommand(const std::vector<std::string>& argv, const std::string& emulatorIncludeDir = {}) {
  ProcessSpec spec;
  spec.argv = argv;
  std::string diagnostics;
  spec.onStdoutLine = [](const std::string& line) { std::cout << line << "\n"; };
  if (emulatorIncludeDir.empty())
    spec.onStderrLine = [](const std::string& line) { std::cerr << line << "\n"; };
  else
    spec.onStderrLine = [&diagnostics](const std::string& line) { diagnostics += line + "\n"; };
  const ProcessResult r = ProcessRunner().run(spec);
  if (!diagnostics.empty()) std::cerr << cleanEmulatorCompilerOutput(diagnostics, emulatorIncludeDir);
  if (!r.started) {
    std::cerr << "kwb sim cc: cannot run " << argv.front() << ": " << r.startError << "\n";
    return 3;
  }
  if (r.exited) return r.exitCode;
  std::cerr << "kwb sim cc: " << argv.front() << " " << r.describeOutcome() << "\n";
  return 1;
}

// The build system's dependency file must name the user's source, not the rewritten copy (which is an
// output of this step).
void pointDepfileAtSource(const std::vector<std::string>& flags, const std::string& copy,
                          const std::string& src) {
  for (std::size_t i = 0; i + 1 < flags.size(); ++i) {
    if (flags[i] != "-MF") continue;
    std::string text = readTextFileOrEmpty(flags[i + 1]);
    for (std::size_t p = text.find(copy); p != std::string::npos; p = text.find(copy, p + src.size()))
      text.replace(p, copy.size(), src);
    writeText(flags[i + 1], text);
  }
}

}  // namespace

AscInvocation parseAscInvocation(const std::vector<std::string>& args) {
  AscInvocation inv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> std::string {
      if (i + 1 < args.size()) return args[++i];
      inv.errors.push_back(a + " needs a value");
      return {};
    };
    if (a == "-c") {
      inv.compileOnly = true;
    } else if (a == "-o") {
      inv.output = next();
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2) {
      inv.output = a.substr(2);
    } else if (a.rfind("--npu-arch=", 0) == 0) {
      inv.soc = socOfArch(a.substr(11), inv.errors);
    } else if (a == "--npu-arch" || a == "--cce-aicore-arch") {
      inv.soc = socOfArch(next(), inv.errors);
    } else if (a.rfind("--cce-aicore-arch=", 0) == 0) {
      inv.soc = socOfArch(a.substr(18), inv.errors);
    } else if (a.rfind("--kwb-soc=", 0) == 0) {
      inv.soc = a.substr(10);
      const auto& names = simSocNames();
      if (std::find(names.begin(), names.end(), inv.soc) == names.end())
        inv.errors.push_back("--kwb-soc=" + inv.soc + ": unknown SoC");
    } else if (a == "--cce-auto-sync" || a == "--cce-auto-sync=on") {
      inv.autoSync = true;
    } else if (a == "--cce-auto-sync=off") {
      inv.autoSync = false;
    } else if (a == "-x" || a == "-mllvm") {
      // Every source is compiled as C++ (an .asc is C++ with <<<>>> launches); -mllvm passes an option to
      // bisheng's code generator, which means nothing on the CPU. Both take the next argument.
      next();
    } else if (a == "--enable-simt" || a.rfind("--cce-", 0) == 0 || (a.rfind("-x", 0) == 0 && a.size() > 2)) {
      // bisheng code generation options, and -xcce / -xasc (the kernel-launch samples' CCE rules: compiled
      // as C++ too): nothing to do on the CPU
    } else if (takesValue(a)) {
      inv.passFlags.push_back(a);
      inv.passFlags.push_back(next());
    } else if (!a.empty() && a[0] == '-') {
      inv.passFlags.push_back(a);
    } else if (isSource(a)) {
      inv.sources.push_back(a);
    } else {
      inv.linkInputs.push_back(a);
    }
  }
  if (inv.output.empty()) inv.errors.push_back("no output given (-o FILE)");
  if (inv.sources.empty() && inv.linkInputs.empty()) inv.errors.push_back("no input files");
  if (inv.compileOnly && inv.sources.size() != 1)
    inv.errors.push_back("-c compiles exactly one source, got " + std::to_string(inv.sources.size()));
  return inv;
}

int runAscInvocation(const AscInvocation& inv) {
  if (!inv.errors.empty()) {
    for (const auto& e : inv.errors) std::cerr << "kwb sim cc: error: " << e << "\n";
    return 2;
  }
  const InstallLayout layout = currentInstallLayout();
  const std::string cxx = emulatorCompiler();
  std::vector<std::string> argv = {cxx};
  const std::vector<std::string> flags =
      simCompileFlags("c++17", inv.soc, inv.autoSync, layout.emulatorIncludeDir.string());
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), inv.passFlags.begin(), inv.passFlags.end());
  // After the user's own -I: the tiling contract's kwb_tiling.h, which the host headers of operator and
  // Matmul samples reach (tiling/platform/platform_ascendc.h -> kwb_op/tiling_context.h).
  argv.push_back("-I" + (layout.dataRoot / "resources" / "tasks" / "include").string());

  // Sources are compiled (a link line may carry some too); <<<>>> sources through their rewritten copy,
  // written next to the output.
  std::vector<std::string> extraObjects;
  for (std::size_t k = 0; k < inv.sources.size(); ++k) {
    const std::string src = fs::absolute(inv.sources[k]).lexically_normal().string();
    const std::string text = readTextFileOrEmpty(src);
    std::string compiled = src;
    std::vector<std::string> around;
    if (needsChevronRewrite(src, text)) {
      const ChevronRewrite rw = rewriteChevronLaunches(text, src);
      if (!rw.errors.empty()) {
        for (const auto& e : rw.errors) std::cerr << src << ":" << e.line << ": error: " << e.message << "\n";
        return 1;
      }
      compiled = inv.output + (inv.compileOnly ? "" : "." + std::to_string(k)) + ".kwb.cpp";
      if (!writeText(compiled, rw.text)) {
        std::cerr << "kwb sim cc: error: cannot write " << compiled << "\n";
        return 3;
      }
      around = {"-iquote", fs::path(src).parent_path().string()};
    }
    if (inv.compileOnly) {
      argv.insert(argv.end(), around.begin(), around.end());
      argv.insert(argv.end(), {"-x", "c++", "-c", compiled, "-o", inv.output});
      const int rc = runCommand(argv, layout.emulatorIncludeDir.string());
      if (rc == 0 && compiled != src) pointDepfileAtSource(inv.passFlags, compiled, src);
      return rc;
    }
    const std::string obj = inv.output + "." + std::to_string(k) + ".kwb.o";
    std::vector<std::string> one = argv;
    one.insert(one.end(), around.begin(), around.end());
    one.insert(one.end(), {"-x", "c++", "-c", compiled, "-o", obj});
    if (const int rc = runCommand(one, layout.emulatorIncludeDir.string()); rc != 0) return rc;
    extraObjects.push_back(obj);
  }

  // Link: the objects, the SoC's parameters for the cost model, the emulator runtime.
  const fs::path socJson = socDirectory(layout) / (inv.soc + ".json");
  const std::string socText = fs::exists(socJson) ? readTextFileOrEmpty(socJson) : std::string();
  std::vector<std::string> link = {cxx};
  link.insert(link.end(), inv.passFlags.begin(), inv.passFlags.end());
  link.insert(link.end(), inv.linkInputs.begin(), inv.linkInputs.end());
  link.insert(link.end(), extraObjects.begin(), extraObjects.end());
  if (!socText.empty()) {
    const std::string socSrc = inv.output + ".kwb_soc.cpp", socObj = inv.output + ".kwb_soc.o";
    if (!writeText(socSrc, simSocObjectSource(socText))) {
      std::cerr << "kwb sim cc: error: cannot write " << socSrc << "\n";
      return 3;
    }
    if (const int rc = runCommand({cxx, "-c", "-x", "c++", socSrc, "-o", socObj}); rc != 0) return rc;
    link.push_back(socObj);
  }
  link.insert(link.end(), {layout.emulatorRuntimeLib.string(), "-pthread", "-o", inv.output});
  const int rc = runCommand(link);
  // The link step's own files go: they lie next to the output, which samples put in their source folder
  // (RUNTIME_OUTPUT_DIRECTORY), where a later `file(GLOB *.cpp)` of the same sample would pick them up.
  std::error_code ec;
  for (const auto& obj : extraObjects) fs::remove(obj, ec);
  for (std::size_t k = 0; k < inv.sources.size(); ++k)
    fs::remove(inv.output + "." + std::to_string(k) + ".kwb.cpp", ec);
  fs::remove(inv.output + ".kwb_soc.cpp", ec);
  fs::remove(inv.output + ".kwb_soc.o", ec);
  return rc;
}

}  // namespace kwb
