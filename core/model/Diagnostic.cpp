// SPDX-License-Identifier: MIT
#include "core/model/Diagnostic.h"

#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/model/JsonReader.h"
#include "core/model/Utf8Text.h"

namespace kwb {

std::string_view toString(Severity s) {
  switch (s) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
    case Severity::Fatal:
      return "fatal";
  }
  return "error";
}

std::optional<Severity> parseSeverity(std::string_view text) {
  if (text == "note" || text == "remark" || text == "info") return Severity::Note;
  if (text == "warning") return Severity::Warning;
  if (text == "error") return Severity::Error;
  if (text == "fatal" || text == "fatal error") return Severity::Fatal;
  return std::nullopt;
}

bool isKnownCategory(std::string_view c) {
  static constexpr std::array known{
      category::CompileError,     category::LinkError,        category::UbOverflow,
      category::MisalignedCopy,   category::GmOutOfBounds,    category::UbOutOfBounds,
      category::QueueMisuse,      category::MissingSync,      category::UnpairedFlag,
      category::MulticoreOverlap, category::InvalidParam,     category::UnsupportedDtype,
      category::UnsupportedApi,   category::RuntimeCrash,     category::Timeout,
      category::WrongAnswer,      category::SandboxViolation, category::PolicyViolation,
      category::SandboxSetup,     category::CacheIntegrity,   category::AmbiguousReply,
      category::UninitializedRead};
  for (auto k : known)
    if (k == c) return true;
  return false;
}

std::string Diagnostic::format() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (line > 0) out += ":" + std::to_string(line);
    if (column > 0) out += ":" + std::to_string(column);
    out += ": ";
  }
  out += toString(severity);
  out += ": ";
  if (!category.empty()) out += "[" + category + "] ";
  if (block) out += "[block " + std::to_string(*block) + "] ";
  if (constraintId) out += "[constraint " + std::to_string(*constraintId) + "] ";
  out += message;
  return out;
}

std::string RelatedLocation::format() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  return out + ": " + role;
}

void to_json(nlohmann::json& j, const Diagnostic& d) {
  // Every text field may come from tool output (fuzz_diagnostics found an `api` taken from a runtime
  // log with a byte that is not UTF-8).
  j = nlohmann::json{{"source", toValidUtf8(d.source)},
                     {"severity", toString(d.severity)},
                     {"category", toValidUtf8(d.category)},
                     {"file", toValidUtf8(d.file)},
                     {"line", d.line},
                     {"column", d.column},
                     {"message", toValidUtf8(d.message)}};
  if (d.api) j["api"] = toValidUtf8(*d.api);
  if (d.tensor) j["tensor"] = toValidUtf8(*d.tensor);
  if (d.block) j["block"] = *d.block;
  if (d.pipe) j["pipe"] = toValidUtf8(*d.pipe);
  if (!d.notes.empty()) {
    j["notes"] = nlohmann::json::array();
    for (const auto& n : d.notes) j["notes"].push_back(toValidUtf8(n));
  }
  if (!d.excerpt.empty()) j["excerpt"] = toValidUtf8(d.excerpt);
  if (d.constraintId) j["constraint_id"] = *d.constraintId;
  if (!d.related.empty()) {
    j["related"] = nlohmann::json::array();
    for (const auto& r : d.related)
      j["related"].push_back(
          {{"role", toValidUtf8(r.role)}, {"file", toValidUtf8(r.file)}, {"line", r.line}});
  }
}

void read(const JsonReader& r, Diagnostic& d) {
  d = Diagnostic{};
  d.source = r.getString("source", "");
  if (auto sev = r.find("severity")) {
    auto parsed = parseSeverity(sev->asString());
    if (!parsed) sev->expected("one of note, warning, error, fatal");
    d.severity = *parsed;
  }
  d.category = r.getString("category", "");
  d.file = r.getString("file", "");
  d.line = static_cast<int>(r.find("line") ? r.at("line").asInt(0, 1'000'000'000) : 0);
  d.column = static_cast<int>(r.find("column") ? r.at("column").asInt(0, 1'000'000'000) : 0);
  d.message = r.getString("message");
  d.api = r.optString("api");
  d.tensor = r.optString("tensor");
  if (auto b = r.find("block")) d.block = static_cast<int>(b->asInt(0, 1'000'000));
  d.pipe = r.optString("pipe");
  d.notes = r.getStringList("notes");
  d.excerpt = r.getString("excerpt", "");
  if (auto c = r.find("constraint_id")) d.constraintId = static_cast<int>(c->asInt(1, 1'000'000'000));
  if (auto rel = r.find("related")) {
    for (const auto& item : rel->items()) {
      RelatedLocation loc;
      loc.role = item.getString("role");
      loc.file = item.getString("file", "");
      loc.line = static_cast<int>(item.find("line") ? item.at("line").asInt(0, 1'000'000'000) : 0);
      d.related.push_back(std::move(loc));
    }
  }
}

void from_json(const nlohmann::json& j, Diagnostic& d) {
  d = Diagnostic{};
  d.source = j.value("source", "");
  const std::string sev = j.value("severity", "error");
  auto parsed = parseSeverity(sev);
  if (!parsed) throw std::invalid_argument("unknown severity '" + sev + "'");
  d.severity = *parsed;
  d.category = j.value("category", "");
  d.file = j.value("file", "");
  d.line = j.value("line", 0);
  d.column = j.value("column", 0);
  d.message = j.at("message").get<std::string>();
  if (j.contains("api") && !j["api"].is_null()) d.api = j["api"].get<std::string>();
  if (j.contains("tensor") && !j["tensor"].is_null()) d.tensor = j["tensor"].get<std::string>();
  if (j.contains("block") && !j["block"].is_null()) d.block = j["block"].get<int>();
  if (j.contains("pipe") && !j["pipe"].is_null()) d.pipe = j["pipe"].get<std::string>();
  if (j.contains("notes")) d.notes = j["notes"].get<std::vector<std::string>>();
  d.excerpt = j.value("excerpt", "");
  if (j.contains("constraint_id") && !j["constraint_id"].is_null())
    d.constraintId = j["constraint_id"].get<int>();
  if (j.contains("related") && j["related"].is_array())
    for (const auto& item : j["related"])
      d.related.push_back(
          RelatedLocation{item.at("role").get<std::string>(), item.value("file", ""), item.value("line", 0)});
}

}  // namespace kwb
