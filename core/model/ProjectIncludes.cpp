// SPDX-License-Identifier: MIT
#include "core/model/ProjectIncludes.h"

#include "core/model/Candidate.h"

namespace kwb {

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t';
}

// The flat candidate name for a quoted include path, or "" when it names no project file we hold.
std::string flatName(std::string_view path, const std::set<std::string>& names) {
  if (path.substr(0, 3) == "../") path.remove_prefix(3);
  for (std::string_view dir : {"op_kernel/", "op_host/"}) {
    if (path.substr(0, dir.size()) != dir) continue;
    std::string name = candidateNameForProjectPath(path);
    if (name != path && names.count(name)) return name;
    // A header the kernel folder holds is also found beside the host file (and the reverse): msopgen
    // copies the tiling header where each side expects it.
    const std::string_view rest = path.substr(dir.size());
    if (names.count(std::string(rest)) && rest.find('/') == std::string_view::npos) return std::string(rest);
  }
  return {};
}

}  // namespace

std::string flattenProjectIncludes(std::string_view text, const std::set<std::string>& candidateNames) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    std::size_t k = 0;
    while (k < line.size() && isSpace(line[k])) ++k;
    std::string replaced;
    if (k < line.size() && line[k] == '#') {
      ++k;
      while (k < line.size() && isSpace(line[k])) ++k;
      if (line.substr(k, 7) == "include") {
        std::size_t q = k + 7;
        while (q < line.size() && isSpace(line[q])) ++q;
        if (q < line.size() && line[q] == '"') {
          const std::size_t close = line.find('"', q + 1);
          if (close != std::string_view::npos) {
            const std::string name = flatName(line.substr(q + 1, close - q - 1), candidateNames);
            if (!name.empty())
              replaced = std::string(line.substr(0, q + 1)) + name + std::string(line.substr(close));
          }
        }
      }
    }
    if (!replaced.empty())
      out += replaced;
    else
      out += line;
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

bool flattenProjectIncludes(std::string& primarySource, const std::string& primaryName,
                            std::map<std::string, std::string>& companions) {
  std::set<std::string> names = {primaryName};
  for (const auto& [name, text] : companions) names.insert(name);
  bool changed = false;
  auto apply = [&](std::string& text) {
    std::string flat = flattenProjectIncludes(text, names);
    if (flat != text) {
      text = std::move(flat);
      changed = true;
    }
  };
  apply(primarySource);
  for (auto& [name, text] : companions) apply(text);
  return changed;
}

bool headerBelongsInKernelFolder(const std::map<std::string, std::string>& files,
                                 const std::string& primaryName, const std::string& headerName) {
  const auto primary = files.find(primaryName);
  if (primary != files.end() && primary->second.find("\"" + headerName + "\"") != std::string::npos)
    return true;
  for (const auto& [name, text] : files)
    if (text.find("op_kernel/" + headerName + "\"") != std::string::npos) return true;
  return false;
}

}  // namespace kwb
