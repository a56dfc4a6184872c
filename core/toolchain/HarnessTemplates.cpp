// SPDX-License-Identifier: MIT
#include "core/toolchain/HarnessTemplates.h"

#include <set>
#include <stdexcept>

namespace kwb {

std::string renderHarnessTemplate(std::string_view fileName, const std::map<std::string, std::string>& vars) {
  const std::string_view text = harnessTemplateText(fileName);
  const std::string where = "resources/harness/" + std::string(fileName);
  if (text.empty()) throw std::logic_error(where + ": no such template embedded in kwb");
  std::map<std::string, std::string> all = vars;
  all.emplace("MANIFEST_READER", std::string(harnessTemplateText("manifest_reader.inc")));
  std::set<std::string> used;
  std::string out;
  out.reserve(text.size() + 4096);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t at = text.find('@', pos);
    if (at == std::string_view::npos) {
      out.append(text.substr(pos));
      break;
    }
    out.append(text.substr(pos, at - pos));
    // A placeholder is @ + [A-Z_]+ + @; any other @ (an e-mail, a decorator) is copied as it is.
    std::size_t end = at + 1;
    while (end < text.size() && ((text[end] >= 'A' && text[end] <= 'Z') || text[end] == '_')) ++end;
    if (end == at + 1 || end >= text.size() || text[end] != '@') {
      out.push_back('@');
      pos = at + 1;
      continue;
    }
    const std::string name(text.substr(at + 1, end - at - 1));
    const auto it = all.find(name);
    if (it == all.end()) throw std::logic_error(where + ": placeholder @" + name + "@ has no value");
    out.append(it->second);
    used.insert(name);
    pos = end + 1;
  }
  for (const auto& [name, value] : vars)
    if (!used.count(name))
      throw std::logic_error(where + ": value for @" + name + "@ but no such placeholder");
  return out;
}

}  // namespace kwb
