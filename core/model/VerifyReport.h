// SPDX-License-Identifier: MIT
#pragma once
// The verifier's account of one evaluation, detailed enough for an agent to act on: per case and
// output tensor, how many elements failed, the worst errors, the first mismatches and the pattern they
// form ("only the tail tile", "only block 3", "every 16th element", "off by a factor of 2").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/Diagnostic.h"
#include "core/model/Verdict.h"

namespace kwb {

class JsonReader;

struct Mismatch {
  std::int64_t index = 0;  // flat element index
  double expected = 0.0;   // may be NaN/Inf; stored as "nan"/"inf"/"-inf"
  double actual = 0.0;
  // NaN-aware so that a report read back equals the one written.
  bool operator==(const Mismatch& o) const;
};

struct CaseResult {
  std::string caseName;
  std::string tensor;  // output tensor checked
  bool passed = false;
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;  // elements outside tolerance (NaN/Inf and unwritten included)
  std::int64_t nonFinite = 0;   // NaN/Inf where the reference is finite
  std::int64_t unwritten = 0;   // elements still holding the poison pattern
  double maxAbsError = 0.0;
  double maxRelError = 0.0;
  std::vector<Mismatch> firstMismatches;
  std::string pattern;  // empty when passed or no pattern was recognised
  std::string message;
  bool operator==(const CaseResult& o) const;  // NaN-aware, like Mismatch
};

struct VerifyReport {
  Verdict verdict = Verdict::WrongAnswer;
  std::uint64_t seed = 0;  // regenerates the exact inputs
  std::vector<CaseResult> cases;
  bool inputsUnchanged = true;
  std::vector<Diagnostic> diagnostics;
  std::string summary;

  bool passed() const { return verdict == Verdict::Pass; }
  bool operator==(const VerifyReport&) const = default;
};

void read(const JsonReader& r, Mismatch& m);
void read(const JsonReader& r, CaseResult& c);
void read(const JsonReader& r, VerifyReport& v);
void to_json(nlohmann::json& j, const Mismatch& m);
void to_json(nlohmann::json& j, const CaseResult& c);
void to_json(nlohmann::json& j, const VerifyReport& v);
void from_json(const nlohmann::json& j, Mismatch& m);
void from_json(const nlohmann::json& j, CaseResult& c);
void from_json(const nlohmann::json& j, VerifyReport& v);

}  // namespace kwb
