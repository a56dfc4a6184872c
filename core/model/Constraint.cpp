// SPDX-License-Identifier: MIT
#include "core/model/Constraint.h"

#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "core/model/Hash.h"
#include "core/model/JsonReader.h"
#include "core/model/Time.h"

namespace kwb {

namespace {

constexpr std::pair<std::string_view, ConstraintKind> kKinds[] = {
    {"rule", ConstraintKind::TextRule},
    {"locked-region", ConstraintKind::LockedRegion},
    {"fixed-parameter", ConstraintKind::FixedParameter},
};

std::vector<std::string> splitLines(std::string_view source) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    std::string line(source.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::string_view constraintKindName(ConstraintKind k) {
  return enumName(kKinds, k);
}

std::optional<std::string> extractLines(std::string_view source, int startLine, int endLine) {
  const auto lines = splitLines(source);
  if (startLine < 1 || endLine < startLine || endLine > static_cast<int>(lines.size())) return std::nullopt;
  std::string out;
  for (int i = startLine; i <= endLine; ++i) out += lines[static_cast<std::size_t>(i - 1)] + "\n";
  return out;
}

Constraint Constraint::rule(std::string text) {
  Constraint c;
  c.kind = ConstraintKind::TextRule;
  c.text = std::move(text);
  c.createdAt = nowIso8601();
  return c;
}

Constraint Constraint::lockRegion(std::string file, std::string_view source, int startLine, int endLine) {
  auto text = extractLines(source, startLine, endLine);
  if (!text)
    throw std::invalid_argument("cannot lock lines " + std::to_string(startLine) + "-" +
                                std::to_string(endLine) + " of " + file + ": it has " +
                                std::to_string(splitLines(source).size()) + " lines");
  Constraint c;
  c.kind = ConstraintKind::LockedRegion;
  c.file = std::move(file);
  c.startLine = startLine;
  c.endLine = endLine;
  c.text = std::move(*text);
  c.hash = hashHex(c.text);
  c.createdAt = nowIso8601();
  return c;
}

Constraint Constraint::fixParameter(std::string parameter, nlohmann::json value) {
  Constraint c;
  c.kind = ConstraintKind::FixedParameter;
  c.parameter = std::move(parameter);
  c.value = std::move(value);
  c.createdAt = nowIso8601();
  return c;
}

std::string Constraint::describe() const {
  switch (kind) {
    case ConstraintKind::TextRule:
      return "Rule: " + text;
    case ConstraintKind::LockedRegion:
      return "Keep " + file + " lines " + std::to_string(startLine) + "-" + std::to_string(endLine) +
             " unchanged (they may move, but the text must stay verbatim)";
    case ConstraintKind::FixedParameter:
      return "Parameter " + parameter + " must be " +
             (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return text;
}

std::optional<int> findLockedRegion(const Constraint& c, std::string_view source) {
  if (c.kind != ConstraintKind::LockedRegion || c.text.empty()) return std::nullopt;
  const auto locked = splitLines(c.text);
  const auto lines = splitLines(source);
  if (locked.size() > lines.size()) return std::nullopt;
  // Prefer the original position, then the nearest match, so a block that occurs twice resolves to
  // the copy the engineer locked.
  std::optional<int> best;
  for (std::size_t start = 0; start + locked.size() <= lines.size(); ++start) {
    bool same = true;
    for (std::size_t k = 0; k < locked.size() && same; ++k) same = lines[start + k] == locked[k];
    if (!same) continue;
    const int line = static_cast<int>(start) + 1;
    if (!best || std::abs(line - c.startLine) < std::abs(*best - c.startLine)) best = line;
  }
  return best;
}

void read(const JsonReader& r, Constraint& c) {
  c = Constraint{};
  auto kindReader = r.at("kind");
  c.kind = kindReader.asEnum(kKinds);
  c.id = static_cast<int>(r.getInt("id", 0));
  if (auto t = r.find("created_at")) c.createdAt = readTimestamp(*t);
  switch (c.kind) {
    case ConstraintKind::TextRule:
      r.allowOnly({"id", "kind", "text", "created_at"});
      c.text = r.at("text").asNonEmptyString();
      break;
    case ConstraintKind::LockedRegion: {
      r.allowOnly({"id", "kind", "file", "start_line", "end_line", "text", "hash", "created_at"});
      c.file = r.at("file").asNonEmptyString();
      c.startLine = static_cast<int>(r.at("start_line").asInt(1, 10'000'000));
      c.endLine = static_cast<int>(r.at("end_line").asInt(c.startLine, 10'000'000));
      c.text = r.at("text").asNonEmptyString();
      auto hashReader = r.at("hash");
      c.hash = hashReader.asString();
      // A hash that disagrees with the text means one of them was edited by hand: the lock would
      // silently protect the wrong thing, so refuse it.
      if (c.hash != hashHex(c.text))
        hashReader.expected("the hash of the locked text (" + hashHex(c.text) + ")");
      break;
    }
    case ConstraintKind::FixedParameter: {
      r.allowOnly({"id", "kind", "parameter", "value", "created_at"});
      c.parameter = r.at("parameter").asNonEmptyString();
      auto v = r.at("value");
      if (v.value().is_structured()) v.expected("a number, string or boolean");
      c.value = v.value();
      break;
    }
  }
}

void to_json(nlohmann::json& j, const Constraint& c) {
  j = {{"id", c.id}, {"kind", constraintKindName(c.kind)}};
  switch (c.kind) {
    case ConstraintKind::TextRule:
      j["text"] = c.text;
      break;
    case ConstraintKind::LockedRegion:
      j["file"] = c.file;
      j["start_line"] = c.startLine;
      j["end_line"] = c.endLine;
      j["text"] = c.text;
      j["hash"] = c.hash;
      break;
    case ConstraintKind::FixedParameter:
      j["parameter"] = c.parameter;
      j["value"] = c.value;
      break;
  }
  if (!c.createdAt.empty()) j["created_at"] = c.createdAt;
}

void from_json(const nlohmann::json& j, Constraint& c) {
  read(JsonReader(j, ""), c);
}

}  // namespace kwb
