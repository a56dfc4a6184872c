#include "core/model/Candidate.h"

#include <nlohmann/json.hpp>

#include "core/model/Hash.h"
#include "core/model/JsonReader.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, Origin> kOrigins[] = {
    {"agent", Origin::Agent},
    {"human", Origin::Human},
    {"replay", Origin::Replay},
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
