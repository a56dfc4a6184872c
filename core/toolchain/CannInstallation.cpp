// SPDX-License-Identifier: MIT
#include "core/toolchain/CannInstallation.h"

#include <cstdlib>
#include <fstream>
#include <regex>

namespace kwb {
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> firstExisting(const fs::path& root, std::initializer_list<const char*> rels) {
  std::error_code ec;
  for (const char* rel : rels) {
    fs::path p = root / rel;
    if (fs::exists(p, ec)) return p;
  }
  return std::nullopt;
}

std::optional<std::string> readVersion(const fs::path& root) {
  // CANN 8 ships version.info ("Version=8.1.RC1"); some packages use *_version.cfg with the same key.
  for (const char* rel : {"version.info", "compiler/version.info", "runtime/version.info"}) {
    std::ifstream in(root / rel);
    std::string line;
    static const std::regex kVersion(R"(^\s*[Vv]ersion\s*=\s*(\S+))");
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, kVersion)) return m[1].str();
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<CannInstallation> inspectCannRoot(const fs::path& root, const std::string& foundVia) {
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root, ec)) return std::nullopt;
  CannInstallation c;
  c.root = root;
  c.foundVia = foundVia;
  c.bisheng = firstExisting(
      root, {"compiler/ccec_compiler/bin/bisheng", "bin/bisheng", "tools/bisheng_compiler/bin/bisheng"});
  c.msprof = firstExisting(root, {"tools/profiler/bin/msprof", "bin/msprof"});
  c.tikicpulib = firstExisting(root, {"tools/tikicpulib/lib"});
  if (auto sim = firstExisting(root, {"tools/simulator"})) {
    for (const auto& e : fs::directory_iterator(*sim, ec))
      if (e.is_directory()) c.simulatorSocs.push_back(e.path().filename().string());
    std::sort(c.simulatorSocs.begin(), c.simulatorSocs.end());
  }
  const bool looksLikeToolkit = c.bisheng || c.msprof || c.tikicpulib ||
                                fs::exists(root / "set_env.sh", ec) || fs::exists(root / "compiler", ec);
  if (!looksLikeToolkit) return std::nullopt;
  c.layout = (root.filename() == "cann" || root.parent_path().filename() == "cann") ? "cann9" : "cann8";
  c.version = readVersion(root);
  return c;
}

std::optional<CannInstallation> detectCann(const EnvLookup& env) {
  for (const char* var : {"ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH"}) {
    if (auto v = env(var)) {
      if (auto c = inspectCannRoot(*v, var)) return c;
    }
  }
  std::vector<fs::path> defaults = {"/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/cann"};
  if (auto home = env("HOME")) defaults.emplace_back(fs::path(*home) / "Ascend/ascend-toolkit/latest");
  for (const auto& d : defaults)
    if (auto c = inspectCannRoot(d, "default location")) return c;
  return std::nullopt;
}

}  // namespace kwb
