// SPDX-License-Identifier: MIT
#include "core/model/Candidate.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/model/Hash.h"
#include "core/model/JsonReader.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, Origin> kOrigins[] = {
    {"agent", Origin::Agent},
    {"human", Origin::Human},
    {"replay", Origin::Replay},
    {"imported", Origin::Imported},
};
}  // namespace

std::string_view originName(Origin o) {
  return enumName(kOrigins, o);
}

bool isValidCandidateFileName(std::string_view name) {
  if (name.empty() || name.size() > 128 || name[0] == '.') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool isCandidateSourceFileName(std::string_view name) {
  for (std::string_view ext : {".cpp", ".cc", ".cxx", ".c"})
    if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext) return true;
  return false;
}

namespace {
bool definesKernelEntry(const std::string& text) {
  return text.find("__global__") != std::string::npos && text.find("__aicore__") != std::string::npos;
}
}  // namespace

PrimaryFileChoice choosePrimaryFile(const std::map<std::string, std::string>& files,
                                    std::string_view preferredName) {
  PrimaryFileChoice out;
  if (files.empty()) return out;
  std::vector<std::string> entries;
  for (const auto& [name, text] : files)
    if (isCandidateSourceFileName(name) && definesKernelEntry(text)) entries.push_back(name);
  if (entries.size() == 1) {
    out.name = entries.front();
    return out;
  }
  if (entries.size() > 1) {
    const bool preferred = std::find(entries.begin(), entries.end(), preferredName) != entries.end();
    out.name = preferred ? std::string(preferredName) : entries.front();
    std::string others;
    for (const auto& e : entries)
      if (e != out.name) others += (others.empty() ? "" : ", ") + e;
    out.note = std::to_string(entries.size()) + " files define a kernel entry (__global__ __aicore__); " +
               out.name + " was compiled and " + others +
               " only serve(s) as #include-able files. Send one kernel file.";
    return out;
  }
  if (files.count(std::string(preferredName))) {
    out.name = std::string(preferredName);
    return out;
  }
  for (const auto& [name, text] : files)
    if (isCandidateSourceFileName(name)) {
      out.name = name;
      return out;
    }
  out.name = files.begin()->first;
  return out;
}

std::pair<std::string, std::string> primaryCandidateFile(const Candidate& c) {
  const PrimaryFileChoice p = choosePrimaryFile(c.files);
  if (p.name.empty()) return {"kernel.cpp", std::string()};
  return {p.name, c.files.at(p.name)};
}

std::string candidateNameForProjectPath(std::string_view path) {
  for (std::string_view dir : {"op_host/", "op_kernel/"}) {
    if (path.substr(0, dir.size()) != dir) continue;
    std::string_view rest = path.substr(dir.size());
    if (rest.empty() || rest.find('/') != std::string_view::npos) return std::string(path);
    if (dir == "op_host/" && rest.size() > 4 && rest.substr(rest.size() - 4) == ".cpp")
      return std::string(rest.substr(0, rest.size() - 4)) + "_host.cpp";
    return std::string(rest);
  }
  return std::string(path);
}

std::string projectPathForCandidateName(std::string_view name, std::string_view primaryName) {
  if (name == primaryName) return "op_kernel/" + std::string(name);
  // Every op_host source, the OpDef's and the others (candidateNameForProjectPath's "<x>_host.cpp").
  if (name.size() > 9 && name.substr(name.size() - 9) == "_host.cpp")
    return "op_host/" + std::string(name.substr(0, name.size() - 9)) + ".cpp";
  return "op_host/" + std::string(name);
}

std::vector<std::string> candidateFileProblems(const std::map<std::string, std::string>& files) {
  std::vector<std::string> out;
  if (files.size() > kMaxCandidateFiles)
    out.push_back("the candidate has " + std::to_string(files.size()) + " files; at most " +
                  std::to_string(kMaxCandidateFiles) + " are accepted");
  std::size_t total = 0;
  std::map<std::string, std::string> folded;  // lower-case name -> name: one folder, on any file system
  for (const auto& [name, text] : files) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (auto [at, fresh] = folded.emplace(lower, name); !fresh)
      out.push_back("file names \"" + at->second + "\" and \"" + name.substr(0, 80) +
                    "\" differ only in case; use one name per file");
    const std::string shown = "\"" + name.substr(0, 80) + (name.size() > 80 ? "..." : "") + "\"";
    if (!name.empty() && name.front() == '/')
      out.push_back("file name " + shown + " is an absolute path; use a plain file name such as kernel.cpp");
    else if (name.find("..") != std::string::npos && name.find('/') != std::string::npos)
      out.push_back("file name " + shown + " leaves the candidate's folder (..); use a plain file name");
    else if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
      out.push_back("file name " + shown +
                    " has a directory; all candidate files sit in one folder, use "
                    "a plain file name");
    else if (name == "." || name == ".." || !isValidCandidateFileName(name))
      out.push_back("file name " + shown +
                    " is not allowed; use letters, digits, '_', '-', '.' (not starting with '.', at most "
                    "128 characters)");
    if (text.size() > kMaxCandidateFileBytes)
      out.push_back(shown + " has " + std::to_string(text.size()) + " bytes; at most " +
                    std::to_string(kMaxCandidateFileBytes) + " per file");
    total += text.size();
  }
  if (total > kMaxCandidateBytes)
    out.push_back("the candidate's files hold " + std::to_string(total) + " bytes together; at most " +
                  std::to_string(kMaxCandidateBytes));
  return out;
}

const std::string* Candidate::file(std::string_view name) const {
  auto it = files.find(std::string(name));
  return it == files.end() ? nullptr : &it->second;
}

std::string Candidate::contentHash() const {
  // Length-prefix every part so that ("ab","c") and ("a","bc") cannot collide by concatenation.
  std::string material;
  for (const auto& [name, text] : files) {
    material += std::to_string(name.size()) + ":" + name + ";" + std::to_string(text.size()) + ":";
    material += hashHex(text) + ";";
  }
  return hashHex(material);
}

void read(const JsonReader& r, Origin& o) {
  o = r.asEnum(kOrigins);
}

void read(const JsonReader& r, Candidate& c) {
  r.allowOnly({"origin", "files"});
  c = Candidate{};
  read(r.at("origin"), c.origin);
  for (const auto& [name, text] : r.at("files").members()) {
    if (!isValidCandidateFileName(name))
      text.fail("invalid candidate file name \"" + name +
                "\"; use letters, digits, '_', '-', '.' (no directories, not starting with '.')");
    c.files[name] = text.asString();
  }
}

void to_json(nlohmann::json& j, Origin o) {
  j = std::string(originName(o));
}

void to_json(nlohmann::json& j, const Candidate& c) {
  j = {{"origin", originName(c.origin)}, {"files", c.files}};
}

void from_json(const nlohmann::json& j, Origin& o) {
  read(JsonReader(j, ""), o);
}

void from_json(const nlohmann::json& j, Candidate& c) {
  read(JsonReader(j, ""), c);
}

}  // namespace kwb
