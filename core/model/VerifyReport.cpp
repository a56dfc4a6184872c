// SPDX-License-Identifier: MIT
#include "core/model/VerifyReport.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/model/JsonReader.h"

namespace kwb {

namespace {
bool sameValue(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}
}  // namespace

bool Mismatch::operator==(const Mismatch& o) const {
  return index == o.index && sameValue(expected, o.expected) && sameValue(actual, o.actual);
}

bool CaseResult::operator==(const CaseResult& o) const {
  return caseName == o.caseName && tensor == o.tensor && passed == o.passed && elements == o.elements &&
         mismatches == o.mismatches && nonFinite == o.nonFinite && unwritten == o.unwritten &&
         sameValue(maxAbsError, o.maxAbsError) && sameValue(maxRelError, o.maxRelError) &&
         firstMismatches == o.firstMismatches && pattern == o.pattern && message == o.message;
}

void read(const JsonReader& r, Mismatch& m) {
  m.index = r.at("index").asInt(0, INT64_MAX);
  m.expected = r.at("expected").asNumberOrSpecial();
  m.actual = r.at("actual").asNumberOrSpecial();
}

void read(const JsonReader& r, CaseResult& c) {
  c = CaseResult{};
  c.caseName = r.getString("case");
  c.tensor = r.getString("tensor", "");
  c.passed = r.at("passed").asBool();
  auto count = [&](std::string_view key) { return r.find(key) ? r.at(key).asInt(0, INT64_MAX) : 0; };
  c.elements = count("elements");
  c.mismatches = count("mismatches");
  c.nonFinite = count("non_finite");
  c.unwritten = count("unwritten");
  if (auto v = r.find("max_abs_error")) c.maxAbsError = v->asNumberOrSpecial();
  if (auto v = r.find("max_rel_error")) c.maxRelError = v->asNumberOrSpecial();
  if (auto f = r.find("first_mismatches")) readList(*f, c.firstMismatches);
  c.pattern = r.getString("pattern", "");
  c.message = r.getString("message", "");
}

void read(const JsonReader& r, VerifyReport& v) {
  v = VerifyReport{};
  read(r.at("verdict"), v.verdict);
  v.seed = r.at("seed").asUInt64();
  if (auto c = r.find("cases")) readList(*c, v.cases);
  v.inputsUnchanged = r.getBool("inputs_unchanged", true);
  if (auto d = r.find("diagnostics")) readList(*d, v.diagnostics);
  v.summary = r.getString("summary", "");
}

void to_json(nlohmann::json& j, const Mismatch& m) {
  j = {{"index", m.index}, {"expected", numberToJson(m.expected)}, {"actual", numberToJson(m.actual)}};
}

void to_json(nlohmann::json& j, const CaseResult& c) {
  j = {{"case", c.caseName},
       {"tensor", c.tensor},
       {"passed", c.passed},
       {"elements", c.elements},
       {"mismatches", c.mismatches},
       {"non_finite", c.nonFinite},
       {"unwritten", c.unwritten},
       {"max_abs_error", numberToJson(c.maxAbsError)},
       {"max_rel_error", numberToJson(c.maxRelError)},
       {"first_mismatches", c.firstMismatches}};
  if (!c.pattern.empty()) j["pattern"] = c.pattern;
  if (!c.message.empty()) j["message"] = c.message;
}

void to_json(nlohmann::json& j, const VerifyReport& v) {
  j = {{"verdict", v.verdict},
       {"seed", v.seed},
       {"cases", v.cases},
       {"inputs_unchanged", v.inputsUnchanged},
       {"diagnostics", v.diagnostics}};
  if (!v.summary.empty()) j["summary"] = v.summary;
}

void from_json(const nlohmann::json& j, Mismatch& m) {
  read(JsonReader(j, ""), m);
}
void from_json(const nlohmann::json& j, CaseResult& c) {
  read(JsonReader(j, ""), c);
}
void from_json(const nlohmann::json& j, VerifyReport& v) {
  read(JsonReader(j, ""), v);
}

}  // namespace kwb
