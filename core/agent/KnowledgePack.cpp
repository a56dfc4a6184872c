#include "core/agent/KnowledgePack.h"
#include "core/toolchain/InstallLayout.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kwb {

namespace fs = std::filesystem;

fs::path workbenchDataRoot() {
  return currentInstallLayout().dataRoot;  // honours KWB_DATA_DIR
}

std::string readTextFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

PromptResources loadPromptResources(const fs::path& root) {
  PromptResources r;
  r.contract = readTextFile(root / "docs" / "candidate-contract.md");
  const fs::path dir = root / "resources" / "knowledge";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("knowledge pack folder missing: " + dir.string());
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) r.knowledge.push_back({f.filename().string(), readTextFile(f)});
  if (r.knowledge.empty())
    throw std::runtime_error("knowledge pack folder has no .md files: " + dir.string());
  return r;
}

}  // namespace kwb
