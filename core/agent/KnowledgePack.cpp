// SPDX-License-Identifier: MIT
#include "core/agent/KnowledgePack.h"
#include "core/base/InstallLayout.h"
#include "core/base/TextFile.h"

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

PromptResources loadPromptResources(const fs::path& root) {
  PromptResources r;
  r.contract = readTextFileOrThrow(root / "docs" / "candidate-contract.md");
  const fs::path dir = root / "resources" / "knowledge";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("knowledge pack folder missing: " + dir.string());
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) r.knowledge.push_back({f.filename().string(), readTextFileOrThrow(f)});
  if (r.knowledge.empty())
    throw std::runtime_error("knowledge pack folder has no .md files: " + dir.string());
  return r;
}

}  // namespace kwb
