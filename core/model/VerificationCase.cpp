// SPDX-License-Identifier: MIT
#include "core/model/VerificationCase.h"

#include "core/model/JsonReader.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, Distribution> kDistributions[] = {
    {"uniform", Distribution::Uniform},    {"normal", Distribution::Normal},
    {"small", Distribution::Small},        {"large", Distribution::Large},
    {"near-zero", Distribution::NearZero}, {"with-negatives", Distribution::WithNegatives},
    {"positive", Distribution::Positive},
};
}  // namespace

std::string_view distributionName(Distribution d) {
  return enumName(kDistributions, d);
}

bool isValidCaseName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] == '.') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

void read(const JsonReader& r, ValueHint& v) {
  r.allowOnly({"distribution", "low", "high"});
  v = ValueHint{};
  if (auto d = r.find("distribution")) v.distribution = d->asEnum(kDistributions);
  v.low = r.optNumber("low");
  v.high = r.optNumber("high");
  if (v.low && v.high && *v.low > *v.high)
    r.at("high").expected("a number >= low (" + nlohmann::json(*v.low).dump() + ")");
}

void read(const JsonReader& r, VerificationCase& c) {
  r.allowOnly({"name", "shapes", "attrs", "values", "tensor_values"});
  c = VerificationCase{};
  c.name = r.at("name").asString();
  if (!isValidCaseName(c.name))
    r.at("name").expected(
        "a case name of letters, digits, '_', '-', '.' (at most 64, not starting with '.')");
  auto shapes = r.at("shapes");
  shapes.requireObject();
  for (const auto& [tensor, shape] : shapes.members()) read(shape, c.shapes[tensor]);
  if (auto attrs = r.find("attrs")) {
    attrs->requireObject();
    for (const auto& [name, value] : attrs->members()) c.attrs[name] = value.value();
  }
  if (auto values = r.find("values")) read(*values, c.values.emplace());
  if (auto tv = r.find("tensor_values")) {
    tv->requireObject();
    for (const auto& [tensor, hint] : tv->members()) read(hint, c.tensorValues[tensor]);
  }
}

void to_json(nlohmann::json& j, const ValueHint& v) {
  j = {{"distribution", distributionName(v.distribution)}};
  if (v.low) j["low"] = *v.low;
  if (v.high) j["high"] = *v.high;
}

void from_json(const nlohmann::json& j, ValueHint& v) {
  read(JsonReader(j, ""), v);
}

void to_json(nlohmann::json& j, const VerificationCase& c) {
  j = {{"name", c.name}, {"shapes", c.shapes}};
  if (!c.attrs.empty()) j["attrs"] = c.attrs;
  if (c.values) j["values"] = *c.values;
  if (!c.tensorValues.empty()) j["tensor_values"] = c.tensorValues;
}

void from_json(const nlohmann::json& j, VerificationCase& c) {
  read(JsonReader(j, ""), c);
}

}  // namespace kwb
