// SPDX-License-Identifier: MIT
#pragma once
// Constraints the engineer pins on the agent. Text rules go into prompts; locked source regions and
// fixed parameters are enforced on every candidate (the agent loop rejects a candidate that breaks
// them with policy-violation feedback). This file holds the data and the checks that need only text.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace kwb {

class JsonReader;

enum class ConstraintKind { TextRule, LockedRegion, FixedParameter };

std::string_view constraintKindName(ConstraintKind k);  // "rule", "locked-region", "fixed-parameter"

// clang-tidy flags the implicit noexcept move constructor: it cannot prove nlohmann::json's noexcept
// move (its invariant checks) non-throwing.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Constraint {
  int id = 0;  // unique within a session; lets the GUI unpin one
  ConstraintKind kind = ConstraintKind::TextRule;
  std::string text;   // rule: the rule; locked-region: the locked lines, verbatim
  std::string file;   // locked-region: candidate file name ("kernel.cpp")
  int startLine = 0;  // locked-region: 1-based, inclusive, where the lines were when locked
  int endLine = 0;
  std::string hash;       // locked-region: hashHex(text)
  std::string parameter;  // fixed-parameter: name ("BUFFER_NUM", "blockDim", "TILE_LENGTH")
  nlohmann::json value;   // fixed-parameter: scalar value
  std::string createdAt;  // ISO-8601 UTC; empty when unknown

  static Constraint rule(std::string text);
  // Locks lines [startLine, endLine] of `source`; throws std::invalid_argument when out of range.
  static Constraint lockRegion(std::string file, std::string_view source, int startLine, int endLine);
  static Constraint fixParameter(std::string parameter, nlohmann::json value);

  // One line for prompts and the GUI: "Keep kernel.cpp lines 10-14 unchanged", "Rule: ...".
  std::string describe() const;
  bool operator==(const Constraint&) const = default;
};

// Lines [startLine, endLine] (1-based, inclusive) of source, each ending in '\n'; '\r' is dropped so
// that a file saved with CRLF still matches. nullopt when the range is outside the text.
std::optional<std::string> extractLines(std::string_view source, int startLine, int endLine);

// Where the locked text begins in `source` now (1-based line): lines may move when code is added
// above, but the block itself must appear verbatim. nullopt when it no longer does.
std::optional<int> findLockedRegion(const Constraint& c, std::string_view source);

void read(const JsonReader& r, Constraint& c);
void to_json(nlohmann::json& j, const Constraint& c);
void from_json(const nlohmann::json& j, Constraint& c);

}  // namespace kwb
