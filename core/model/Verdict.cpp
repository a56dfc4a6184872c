// SPDX-License-Identifier: MIT
#include "core/model/Verdict.h"

#include "core/model/JsonReader.h"

namespace kwb {

namespace {
constexpr std::pair<std::string_view, Verdict> kVerdicts[] = {
    {"pass", Verdict::Pass},
    {"compile_error", Verdict::CompileError},
    {"runtime_error", Verdict::RuntimeError},
    {"wrong_answer", Verdict::WrongAnswer},
    {"timeout", Verdict::Timeout},
    {"rejected", Verdict::Rejected},
};
}  // namespace

std::string_view verdictName(Verdict v) {
  return enumName(kVerdicts, v);
}

std::optional<Verdict> parseVerdict(std::string_view name) {
  for (const auto& [n, v] : kVerdicts)
    if (n == name) return v;
  return std::nullopt;
}

void read(const JsonReader& r, Verdict& v) {
  v = r.asEnum(kVerdicts);
}
void to_json(nlohmann::json& j, Verdict v) {
  j = std::string(verdictName(v));
}
void from_json(const nlohmann::json& j, Verdict& v) {
  read(JsonReader(j, ""), v);
}

}  // namespace kwb
